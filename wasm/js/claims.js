// The claims suite behind `npx smfem claims`: the product's claim (MFEM at 1-2 iterations keeps
// the motion of heterogeneous bodies where FEM damps it) measured on every scene of
// assets/scenes/claims/suite.json, in the wasm build or (faster, two scenes at once) with the
// native twin. The measurements and verdicts are the C++ claims module's
// (wasm/src/smfem/claims/scene_claims.hpp) in both; this file runs the scenes and formats the
// results.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { nativeTool } from './native_tools.js';

const execFileAsync = promisify(execFile);

const suiteFile = fileURLToPath(new URL('../../assets/scenes/claims/suite.json', import.meta.url));
export const defaultAssetDir = fileURLToPath(new URL('../../build/native/assets/', import.meta.url));

export async function readSuite() {
  return JSON.parse(await readFile(suiteFile, 'utf8'));
}

const sceneName = (asset) => basename(asset, '.smfem');

/** Evaluates the scenes in the wasm module (loader.js), one after the other. */
export function wasmEvaluator(smfem) {
  const read = (path) =>
    readFile(path).catch((error) => {
      throw new Error(`${path}: ${error.code}; bake the scenes first (npm test or npm start do)`);
    });
  return {
    parallelism: 1,
    scene: async (path, name, quick) => smfem.evaluateClaims(await read(path), { name, quick }),
    convergence: async (path, name, options) =>
      smfem.convergenceStudy(await read(path), { name, ...options }),
  };
}

/** Evaluates the scenes with the native twin (build/bin/smfem-claims), two processes at once. */
export function nativeEvaluator(tool = nativeTool('smfem-claims')) {
  const run = async (args) => JSON.parse((await execFileAsync(tool, args, { maxBuffer: 1 << 26 })).stdout);
  return {
    parallelism: 2,
    scene: (path, name, quick) =>
      run([path, '--name', name, '--threads', '1', ...(quick ? ['--quick'] : [])]),
    convergence: (path, name, { region, ratios, loadTime, iterations }) =>
      run([
        path,
        '--convergence',
        region,
        '--ratios',
        ratios.join(','),
        '--load-time',
        String(loadTime),
        '--iterations',
        String(iterations),
        '--threads',
        '1',
      ]),
  };
}

/**
 * Runs the suite with an evaluator (wasmEvaluator or nativeEvaluator): every scene (or the
 * quick subset, or `only` by name) and, in the full suite, the convergence study.
 * onScene(index, count, name) is called as each scene starts.
 */
export async function runClaims(
  evaluator,
  { quick = false, only, assetDir = defaultAssetDir, onScene } = {},
) {
  const suite = await readSuite();
  if (only) {
    const unknown = only.filter((name) => !suite.scenes.some((s) => sceneName(s.asset) === name));
    if (unknown.length) throw new Error(`no scene named ${unknown.join(', ')} in ${suiteFile}`);
  }
  const entries = suite.scenes.filter((s) => (only ? only.includes(sceneName(s.asset)) : !quick || s.quick));
  const scenes = new Array(entries.length);
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const index = next++;
      const name = sceneName(entries[index].asset);
      onScene?.(index, entries.length, name);
      scenes[index] = await evaluator.scene(join(assetDir, entries[index].asset), name, quick);
    }
  };
  await Promise.all(Array.from({ length: evaluator.parallelism }, worker));
  let convergence;
  if (!quick && !only) {
    const { asset, ...options } = suite.convergence;
    const name = sceneName(asset);
    onScene?.(entries.length, entries.length, `convergence study (${name})`);
    convergence = { scene: name, ...(await evaluator.convergence(join(assetDir, asset), name, options)) };
  }
  return { quick, scenes, convergence, failures: failures(scenes) };
}

// Verdicts on the paper's variant of MFEM are measurements, not claims of the product.
const isClaim = (verdict) => !verdict.startsWith('paper');

/** Every claim (of the default solver) that does not hold, as "scene: verdict". */
export function failures(scenes) {
  return scenes.flatMap((s) =>
    Object.entries(s.verdicts)
      .filter(([verdict, holds]) => isClaim(verdict) && !holds)
      .map(([verdict]) => `${s.scene}: ${verdict}`),
  );
}

const run = (scene, label) => scene.runs.find((r) => r.label === label);
const fixed = (x, digits = 4) => (typeof x === 'number' ? x.toFixed(digits) : '-');

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** The summary tables (Markdown). */
export function formatClaims({ scenes, convergence, failures: failed }) {
  const out = [];
  out.push(
    'Angular-momentum error (RMS |L - L_conv| / max |L_conv|) against converged MFEM; peak and late',
    'kinetic energy over converged; iterations per step to converge; backtracks per step at 2 iterations.',
    '',
    table(
      [
        'scene',
        'material',
        'MFEM 1',
        'MFEM 2',
        'paper 1',
        'paper 2',
        'projected 2',
        'FEM 1',
        'FEM 2',
        'peak KE MFEM 1/2',
        'late KE MFEM 1/2',
        'its MFEM/FEM',
        'backtracks MFEM 2/FEM 2',
        'claims',
      ],
      scenes.map((s) => {
        const m1 = run(s, 'mfem-curvature-1'),
          m2 = run(s, 'mfem-curvature-2');
        const verdicts = Object.entries(s.verdicts)
          .filter(([verdict, holds]) => isClaim(verdict) && !holds)
          .map(([verdict]) => verdict);
        return [
          s.scene,
          s.material,
          fixed(m1.angularMomentumError),
          fixed(m2.angularMomentumError),
          fixed(run(s, 'mfem-paper-1')?.angularMomentumError),
          fixed(run(s, 'mfem-paper-2').angularMomentumError),
          fixed(run(s, 'mfem-projected-2')?.angularMomentumError),
          fixed(run(s, 'fem-1').angularMomentumError),
          fixed(run(s, 'fem-2').angularMomentumError),
          `${fixed(m1.peakKineticRatio, 3)} / ${fixed(m2.peakKineticRatio, 3)}`,
          `${fixed(m1.lateKineticRatio, 3)} / ${fixed(m2.lateKineticRatio, 3)}`,
          `${fixed(run(s, 'mfem-curvature-converged').iterationsPerStep, 1)} / ${fixed(run(s, 'fem-converged').iterationsPerStep, 1)}`,
          `${fixed(m2.backtracksPerStep, 2)} / ${fixed(run(s, 'fem-2').backtracksPerStep, 2)}`,
          verdicts.length ? `fails: ${verdicts.join(', ')}` : 'all hold',
        ];
      }),
    ),
  );
  const stable = scenes.filter((s) => s.stability);
  if (stable.length) {
    out.push(
      '',
      'Stability: 800 steps at h = 10 and 16 ms, 1 and 2 iterations, with the energy check: failed steps,',
      "retried steps (worst run) and energy gained beyond the loads' work over the run's peak energy.",
      '',
      table(
        ['scene', 'MFEM failed', 'MFEM retried', 'MFEM excess', 'FEM failed', 'FEM retried', 'FEM excess'],
        stable.map((s) => {
          const of = (solver) => s.stability.filter((r) => r.solver === solver);
          const max = (runs, key) => Math.max(...runs.map((r) => r[key]));
          return [
            s.scene,
            ...['mfem', 'fem'].flatMap((solver) => [
              max(of(solver), 'failedSteps'),
              max(of(solver), 'retriedSteps'),
              fixed(max(of(solver), 'energyExcess'), 5),
            ]),
          ];
        }),
      ),
    );
  }
  if (convergence) {
    // A list that ended early ended converged (below rounding).
    const toReach = (ratio, label, fraction) => {
      const decrements = ratio[label];
      const k = decrements.findIndex((d) => d <= fraction * decrements[0]);
      if (k >= 0) return String(k + 1);
      if (ratio.failed?.includes(label)) return `failed at ${decrements.length + 1}`;
      return decrements.length < convergence.iterations
        ? String(decrements.length)
        : `> ${decrements.length}`;
    };
    out.push(
      '',
      `Convergence (Trusty et al. 2023, Fig. 9) on ${convergence.scene}: iterations of one step from a deformed start until the`,
      'Newton decrement is 1e-6 of the first, the stiff region at each ratio times the soft one.',
      '',
      table(
        ['ratio', 'FEM', 'MFEM (paper)', 'MFEM (curvature)'],
        convergence.ratios.map((r) => [
          r.ratio.toExponential(0),
          toReach(r, 'fem', 1e-6),
          toReach(r, 'mfem-paper', 1e-6),
          toReach(r, 'mfem-curvature', 1e-6),
        ]),
      ),
    );
  }
  const paperLosses = scenes.filter((s) => !s.verdicts.paperMfem2KeepsMomentum).map((s) => s.scene);
  out.push(
    '',
    failed.length
      ? `Claims that do not hold:\n${failed.map((f) => `- ${f}`).join('\n')}`
      : 'Every claim holds.',
    "The paper's variant at 2 iterations keeps the angular momentum worse than FEM at 2 on: " +
      `${paperLosses.join(', ') || 'no scene'}.`,
  );
  return out.join('\n');
}
