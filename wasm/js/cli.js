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
//   smfem bench <asset.smfem> | --synthetic <m> <C>  [--solver mfem|fem] [--iters N] [--steps S]
//               [--threads T] [--float] [--build threads|single] [--json]
//
// The same measurement as the native build/bin/smfem-bench (wasm/bench/smfem_bench.cpp): the
// same scene (a drag spring on render vertex 0 pulled 0.2 m up, gravity), 5 untimed warm-up
// steps, then per-iteration and per-phase medians of S steps, as JSON.
import { readFile } from 'node:fs/promises';
import { defaultAssetDir, formatClaims, nativeEvaluator, runClaims, wasmEvaluator } from './claims.js';
import { contactBench } from './contact_bench.js';
import { loadSmfem } from './loader.js';
import { parseSimulateArgs, simulate, usageText as simulateUsage } from './simulate.js';

function usage(problem) {
  process.stderr.write(
    `smfem: ${problem}\nusage: smfem bench <asset.smfem> | --synthetic <m> <C> [--solver mfem|fem] ` +
      `[--iters N] [--steps S] [--threads T] [--float] [--build threads|single] [--json]\n` +
      `       smfem claims [--quick] [--json] [--native] [--only scene,scene] [--assets DIR]\n` +
      `       smfem bench-contact [--warmup W] [--steps N] [--iters K]\n` +
      `       ${simulateUsage}\n`,
  );
  process.exit(2);
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
  const smfem = options.native ? null : await loadSmfem({ build: 'threads' });
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
  const integer = (i, name) => {
    const value = Number(args[i]);
    if (!Number.isInteger(value)) usage(`${name} needs an integer`);
    return value;
  };
  for (let i = 0; i < args.length; ++i) {
    const arg = args[i];
    if (arg === '--synthetic') {
      options.synthetic = [integer(++i, arg), integer(++i, arg)];
    } else if (arg === '--solver') {
      options.solver = args[++i];
      if (options.solver !== 'mfem' && options.solver !== 'fem')
        usage('--solver must be mfem or fem (the full-space references are native only)');
    } else if (arg === '--iters') {
      options.iters = integer(++i, arg);
    } else if (arg === '--steps') {
      options.steps = integer(++i, arg);
    } else if (arg === '--threads') {
      options.threads = integer(++i, arg);
    } else if (arg === '--float') {
      options.float = true;
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
  if (options.steps < 1) usage('--steps must be at least 1');
  return options;
}

const median = (values) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const summary = (values) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });

async function bench(args) {
  const options = parseBenchArgs(args);
  const smfem = await loadSmfem({ build: options.build });
  try {
    const bytes = options.asset ? await readFile(options.asset) : smfem.boxModelAsset(...options.synthetic);
    const parameters = { iterations: options.iters, untilConverged: false, floatStiffness: options.float };
    if (options.solver) parameters.solver = options.solver;
    const simulator = smfem.createSimulator(bytes, {
      sourceName: options.asset ?? 'synthetic',
      threads: options.threads,
      parameters,
    });
    for (const warning of simulator.warnings()) process.stderr.write(`smfem: warning: ${warning}\n`);
    const info = simulator.info;
    // The native bench's scene: pull render vertex 0 up, so every iteration has work to do.
    if (info.renderVertices > 0) {
      const rest = restPosition(smfem, bytes);
      simulator.dragStart(0, [rest[0], rest[1] + 0.2, rest[2]], 1e4);
    }
    simulator.step(5);
    const perIteration = [],
      stepMs = [],
      prediction = [],
      phases = { linearization: [], assembly: [], solve: [], localUpdate: [], lineSearch: [] };
    let iterationsRun = 0,
      backtracks = 0,
      curvatureFallbacks = 0,
      failures = 0;
    for (let step = 0; step < options.steps; ++step) {
      const [report] = simulator.step(1);
      if (!report.ok) ++failures;
      const t = report.phasesMs;
      stepMs.push(report.stepMs);
      prediction.push(t.prediction);
      iterationsRun += report.iterations;
      backtracks += report.lineSearchSteps;
      curvatureFallbacks += report.curvatureFallbacks;
      if (report.iterations === 0) continue;
      const k = report.iterations;
      const total = t.linearization + t.assembly + t.solve + t.localUpdate + t.lineSearch;
      perIteration.push(total / k);
      for (const name of Object.keys(phases)) phases[name].push(t[name] / k);
    }
    const out = {
      build: `wasm-${smfem.build}`,
      solver: simulator.info.parameters.solver,
      modes: info.modes,
      cubature: info.cubature,
      threads: info.threads,
      float_stiffness: options.float,
      iterations_per_step: options.iters,
      steps: options.steps,
      iterations_run: iterationsRun,
      backtracks,
      curvature_fallbacks: curvatureFallbacks,
      failed_steps: failures,
      per_iteration_ms: summary(perIteration),
      step_ms: summary(stepMs),
      phases_ms: {
        prediction_per_step: median(prediction),
        linearization: median(phases.linearization),
        assembly: median(phases.assembly),
        solve: median(phases.solve),
        local_update: median(phases.localUpdate),
        line_search: median(phases.lineSearch),
      },
    };
    process.stdout.write(`${options.json ? JSON.stringify(out) : JSON.stringify(out, null, 2)}\n`);
    simulator.dispose();
  } finally {
    smfem.dispose();
  }
}

// Render vertex 0's rest position, from the asset's render.positions section (f32, little-endian).
function restPosition(smfem, bytes) {
  const section = smfem.inspectAsset(bytes).sections.find((s) => s.name === 'render.positions');
  const view = new DataView(bytes.buffer, bytes.byteOffset + section.offset, 12);
  return [0, 1, 2].map((d) => view.getFloat32(4 * d, true));
}

async function simulateCommand(args) {
  let options;
  try {
    options = parseSimulateArgs(args);
  } catch (error) {
    usage(error.message);
  }
  const smfem = await loadSmfem({ build: options.build });
  try {
    await simulate(smfem, options);
  } finally {
    smfem.dispose();
  }
}

async function benchContact(args) {
  const options = {};
  for (let i = 0; i < args.length; ++i) {
    const number = () => Number.parseInt(args[++i], 10);
    if (args[i] === '--steps') options.steps = number();
    else if (args[i] === '--warmup') options.warmup = number();
    else if (args[i] === '--iters') options.iterations = number();
    else usage(`unknown argument ${args[i]}`);
  }
  const smfem = await loadSmfem({ build: 'threads' });
  try {
    await contactBench(smfem, options);
  } finally {
    smfem.dispose();
  }
}

const commands = { bench, 'bench-contact': benchContact, claims, simulate: simulateCommand };
const [command, ...rest] = process.argv.slice(2);
if (commands[command]) {
  commands[command](rest).catch((error) => {
    process.stderr.write(`smfem: ${error.message}\n`);
    process.exit(1);
  });
} else {
  usage(command ? `unknown command ${command}` : 'give a command');
}
