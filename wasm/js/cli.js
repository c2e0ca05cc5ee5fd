#!/usr/bin/env node
// The wasm module from the command line (package.json "bin": `npx smfem ...`):
//
//   smfem simulate <asset.smfem | recipe.json | scene.json> ...   (simulate.js: a headless run, per step)
//
//   smfem claims [--quick] [--json] [--native] [--only scene,scene] [--assets DIR]
//
// The claims suite (claims.js) in the wasm build, or with --native in build/bin/smfem-claims
// (two scenes at once): a summary table on stdout, or with --json everything as one JSON
// object; progress on stderr. Exits 0 when it ran (failed claims are listed, not errors).
//
//   smfem bench-contact [--warmup W] [--steps N] [--iters K]   (contact_bench.js: contact's cost)
//
//   smfem bench-thin [--steps N] [--iters K]   (thin_bench.js: shells' and rods' cost)
//
//   smfem bench-bake [--surface FILE]   (precompute/js/bake_bench.js: the bake in wasm against
//                                        the native tool)
//
//   smfem bench <asset.smfem> | --synthetic <m> <C>  [--solver mfem|fem] [--iters N] [--steps S]
//               [--threads T] [--float] [--local-deformations] [--build threads|single] [--json]
//
// The same measurement as the native build/bin/smfem-bench (bench.js), as JSON.
//
//   smfem figures --out DIR [--quick] [--force]
//
// The paper's Table 1 and figures regenerated with our code (report/figures.js): index.html,
// report.md, the charts and the raw CSV in DIR (new or empty, or with --force written over what
// is there: output_guard.js); progress on stderr.
import { defaultAssetDir, formatClaims, nativeEvaluator, runClaims, wasmEvaluator } from './claims.js';
import { bakeBench } from '../../precompute/js/bake_bench.js';
import { benchSimulator } from './bench.js';
import { contactBench } from './contact_bench.js';
import { readInput } from './input_files.js';
import { thinBench } from './thin_bench.js';
import { loadSmfem } from './loader.js';
import { optionWholeNumber } from './option_values.js';
import { refuseFilledFolder } from './output_guard.js';
import { runFigures } from './report/figures.js';
import { verdictOf } from './report/write_report.js';
import { parseSimulateArgs, simulate, usageText as simulateUsage } from './simulate.js';
import { syntheticAsset } from './synthetic_asset.js';

const usageText =
  `usage: smfem bench <asset.smfem> | --synthetic <m> <C> [--solver mfem|fem] [--local-deformations] ` +
  `[--iters N] [--steps S] [--threads T] [--float] [--build threads|single] [--json]\n` +
  `       smfem claims [--quick] [--json] [--native] [--only scene,scene] [--assets DIR]\n` +
  `       smfem bench-contact [--warmup W] [--steps N] [--iters K]\n` +
  `       smfem bench-thin [--steps N] [--iters K]\n` +
  `       smfem bench-bake [--surface FILE]\n` +
  `       smfem figures --out DIR [--quick] [--force]\n` +
  `       ${simulateUsage}\n` +
  `       smfem --help   (this text; docs/cli.md has the details)\n`;

function usage(problem) {
  process.stderr.write(`smfem: ${problem}\n${usageText}`);
  process.exit(2);
}

// A whole number of at least `least` for option `name`, or the usage with why not.
function wholeNumber(text, name, least) {
  try {
    return optionWholeNumber(text, name, least);
  } catch (error) {
    return usage(error.message);
  }
}

async function claims(args) {
  const options = { quick: false, json: false, native: false, assetDir: defaultAssetDir };
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--quick') options.quick = true;
    else if (args[i] === '--native') options.native = true;
    else if (args[i] === '--json') options.json = true;
    else if (args[i] === '--only' && i + 1 < args.length) options.only = args[++i].split(',');
    else if (args[i] === '--assets' && i + 1 < args.length) options.assetDir = args[++i];
    else usage(`unknown argument ${args[i]}`);
  }
  const smfem = options.native ? null : await loadSmfem({ build: 'threads', tools: true });
  try {
    const started = performance.now();
    const evaluator = options.native ? nativeEvaluator() : wasmEvaluator(smfem);
    const result = await runClaims(evaluator, {
      ...options,
      onScene: (index, count, name) => process.stderr.write(`[${index + 1}/${count}] ${name}\n`),
    });
    process.stderr.write(`claims: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : `${formatClaims(result)}\n`);
  } finally {
    smfem?.dispose();
  }
}

function parseBenchArgs(args) {
  const options = {
    solver: undefined,
    iters: 2,
    steps: 200,
    threads: undefined,
    float: false,
    build: 'threads',
    json: false,
  };
  const integer = (i, name) => wholeNumber(args[i], name, 1);
  for (let i = 0; i < args.length; ++i) {
    const arg = args[i];
    if (arg === '--synthetic') {
      options.synthetic = [integer(++i, arg), integer(++i, arg)];
    } else if (arg === '--solver') {
      options.solver = args[++i];
      if (options.solver !== 'mfem' && options.solver !== 'fem')
        usage('--solver must be mfem or fem (the full-space references are native only)');
    } else if (arg === '--iters') {
      // Any whole number: the simulator clamps it into its range with a warning.
      options.iters = wholeNumber(args[++i], arg, -Infinity);
    } else if (arg === '--steps') {
      options.steps = integer(++i, arg);
    } else if (arg === '--threads') {
      options.threads = integer(++i, arg);
    } else if (arg === '--float') {
      options.float = true;
    } else if (arg === '--local-deformations') {
      options.localDeformations = true;
    } else if (arg === '--build') {
      options.build = args[++i];
    } else if (arg === '--json') {
      options.json = true;
    } else if (!arg.startsWith('-') && options.asset === undefined) {
      options.asset = arg;
    } else {
      usage(`unknown argument ${arg}`);
    }
  }
  if ((options.asset === undefined) === (options.synthetic === undefined))
    usage('give an asset or --synthetic m C');
  return options;
}

async function bench(args) {
  const options = parseBenchArgs(args);
  const smfem = await loadSmfem({ build: options.build });
  try {
    const bytes = options.asset ? await readInput(options.asset) : syntheticAsset(...options.synthetic);
    const out = benchSimulator(smfem, bytes, { ...options, sourceName: options.asset ?? 'synthetic' });
    process.stdout.write(`${options.json ? JSON.stringify(out) : JSON.stringify(out, null, 2)}\n`);
  } finally {
    smfem.dispose();
  }
}

async function simulateCommand(args) {
  let options;
  try {
    options = parseSimulateArgs(args);
  } catch (error) {
    usage(error.message);
  }
  const smfem = await loadSmfem({ build: options.build, tools: options.subspace !== 'skinning' });
  try {
    await simulate(smfem, options);
  } finally {
    smfem.dispose();
  }
}

async function benchContact(args) {
  const options = {};
  for (let i = 0; i < args.length; ++i) {
    const arg = args[i];
    if (arg === '--steps') options.steps = wholeNumber(args[++i], arg, 1);
    else if (arg === '--warmup') options.warmup = wholeNumber(args[++i], arg, 0);
    else if (arg === '--iters') options.iterations = wholeNumber(args[++i], arg, 1);
    else usage(`unknown argument ${args[i]}`);
  }
  const smfem = await loadSmfem({ build: 'threads' });
  try {
    await contactBench(smfem, options);
  } finally {
    smfem.dispose();
  }
}

async function benchThin(args) {
  const options = {};
  for (let i = 0; i < args.length; ++i) {
    const arg = args[i];
    if (arg === '--steps') options.steps = wholeNumber(args[++i], arg, 1);
    else if (arg === '--iters') options.iterations = wholeNumber(args[++i], arg, 1);
    else usage(`unknown argument ${args[i]}`);
  }
  const smfem = await loadSmfem({ build: 'threads' });
  try {
    await thinBench(smfem, options);
  } finally {
    smfem.dispose();
  }
}

async function benchBake(args) {
  if (args.length === 0) return bakeBench();
  if (args[0] !== '--surface' || args.length !== 2)
    usage(`bench-bake: expected --surface FILE, got ${args.join(' ')}`);
  await bakeBench({ surface: args[1], targets: [undefined] });
}

async function figures(args) {
  const options = { quick: false };
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--quick') options.quick = true;
    else if (args[i] === '--force') options.force = true;
    else if (args[i] === '--out' && i + 1 < args.length) options.out = args[++i];
    else usage(`unknown argument ${args[i]}`);
  }
  if (!options.out) usage('figures needs --out DIR');
  await refuseFilledFolder(options.out, '--out', options.force);
  const smfem = await loadSmfem({ build: 'threads', tools: true });
  try {
    const log = (message) => process.stderr.write(`${message}\n`);
    const { sections, seconds } = await runFigures(smfem, { ...options, log });
    for (const section of sections)
      log(`${section.holds === false ? 'NOT SUPPORTED' : verdictOf(section.holds)}: ${section.title}`);
    log(`figures: ${seconds.toFixed(1)} s; the report is ${options.out}/index.html`);
  } finally {
    smfem.dispose();
  }
}

const commands = {
  bench,
  'bench-bake': benchBake,
  'bench-contact': benchContact,
  'bench-thin': benchThin,
  claims,
  figures,
  simulate: simulateCommand,
};
const [command, ...rest] = process.argv.slice(2);
const wantsHelp = (arg) => arg === '--help' || arg === '-h';
if (command === 'help' || wantsHelp(command) || (commands[command] && rest.some(wantsHelp))) {
  process.stdout.write(usageText);
} else if (commands[command]) {
  commands[command](rest).catch((error) => {
    // stdout's reader left (`smfem simulate --json | head -1`): it has what it wanted.
    if (error.code === 'EPIPE') process.exit(0);
    process.stderr.write(`smfem: ${error.message}\n`);
    process.exit(1);
  });
} else {
  usage(command ? `unknown command ${command}` : 'give a command');
}
