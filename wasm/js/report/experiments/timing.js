// Subspace MFEM (Trusty et al. 2023), Table 1 (time per solver iteration of subspace MFEM and FEM,
// the CPU cost of the full-space projection x = Bu, full-space MFEM per iteration) and Fig. 10
// (time per phase of an MFEM step), on our versions of the paper's scenes: octobot (Fig. 9),
// swordsman (the gatorman of Fig. 7: a soft creature holding a stiff sword, m 10, |C| 192), crab
// (Fig. 2) and creature (the mammoth of Fig. 1: bones, joints and muscle, m 16, |C| 581). The scene
// is the benchmark's (bench.js: a drag spring and gravity), 2 iterations per step, 2 threads.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { benchSimulator } from '../../bench.js';
import { stackedBars } from '../chart.js';
import { nativeTool } from '../../native_tools.js';

const recipe = (name) => fileURLToPath(new URL(`../../../../assets/scenes/${name}.json`, import.meta.url));

// At the paper's m and |C|: the shipped assets have them, but for the octobot (16 and 800, the
// paper's Fig. 9 setting), baked again at Table 1's 5 and 227.
const scenes = [
  {
    name: 'octobot',
    paper: 'Octobot (Fig. 9)',
    bake: ['--modes', '5', '--cubature', '227'],
  },
  { name: 'swordsman', paper: 'Gatorman (Fig. 7)' },
  { name: 'crab', paper: 'Crab (Fig. 2)' },
  { name: 'creature', paper: 'Mammoth (Fig. 1)' },
];
const threads = 2;

async function nativeBench(args) {
  const { stdout } = await promisify(execFile)(
    nativeTool('smfem-bench'),
    [...args, '--threads', String(threads), '--json'],
    {
      maxBuffer: 1 << 24,
    },
  );
  return JSON.parse(stdout);
}

/**
 * The CPU cost of x = X + sum_i w_i(X) A_i [X; 1] for every vertex of the scene's tet mesh (what
 * the page leaves to the vertex shader), in JS on Float32Arrays: median of `repeats`, ms.
 */
function projectionMs(vertexCount, modeCount, repeats) {
  const weights = new Float32Array(vertexCount * modeCount).map((_, i) => ((i * 7919) % 101) / 101);
  const rest = new Float32Array(3 * vertexCount).map((_, i) => (i % 17) / 17);
  const affine = new Float32Array(12 * modeCount).map((_, i) => (i % 13) / 130);
  const out = new Float32Array(3 * vertexCount);
  const times = [];
  for (let r = 0; r < repeats; ++r) {
    const start = performance.now();
    for (let v = 0; v < vertexCount; ++v) {
      const x = rest[3 * v],
        y = rest[3 * v + 1],
        z = rest[3 * v + 2];
      let ox = x,
        oy = y,
        oz = z;
      for (let i = 0; i < modeCount; ++i) {
        const w = weights[v * modeCount + i];
        const a = 12 * i;
        ox += w * (affine[a] * x + affine[a + 1] * y + affine[a + 2] * z + affine[a + 3]);
        oy += w * (affine[a + 4] * x + affine[a + 5] * y + affine[a + 6] * z + affine[a + 7]);
        oz += w * (affine[a + 8] * x + affine[a + 9] * y + affine[a + 10] * z + affine[a + 11]);
      }
      out[3 * v] = ox;
      out[3 * v + 1] = oy;
      out[3 * v + 2] = oz;
    }
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const phaseNames = {
  prediction_per_step: 'prediction (per step)',
  linearization: 'linearization',
  assembly: 'K assembly',
  solve: 'solve',
  local_update: 'local stretch and multiplier update',
  line_search: 'line search',
};

const fixed = (x, digits = 2) => (x === null ? '—' : x.toFixed(digits));

export async function timingFigures(ctx) {
  const steps = ctx.quick ? 20 : 100;
  const rows = [];
  for (const scene of scenes.filter((s) => !ctx.quick || s.name === 'crab')) {
    ctx.log(`Table 1: ${scene.name}`);
    const path = scene.bake
      ? await ctx.bakedFile(recipe(scene.name), scene.bake)
      : ctx.assetPath(`${scene.name}.smfem`);
    const bytes = await ctx.readFile(path);
    const mesh = ctx.smfem.inspectAsset(bytes).meta.mesh;
    const run = (solver) => benchSimulator(ctx.smfem, bytes, { solver, iters: 2, steps, threads }, ctx.log);
    const mfem = run('mfem');
    const fem = run('fem');
    const nativeMfem = await nativeBench([
      path,
      '--solver',
      'mfem',
      '--iters',
      '2',
      '--steps',
      String(steps),
    ]);
    const nativeFem = await nativeBench([path, '--solver', 'fem', '--iters', '2', '--steps', String(steps)]);
    let full = null;
    if (!ctx.quick) {
      ctx.log(`Table 1: ${scene.name}, full-space MFEM (bakes the whole mesh, then minutes per iteration)`);
      const fullAsset = await ctx.bakedFile(recipe(scene.name), ['--full-mesh']);
      full = await nativeBench([fullAsset, '--solver', 'full-mfem', '--iters', '1', '--steps', '1']);
    }
    rows.push({
      scene: scene.name,
      paper: scene.paper,
      vertices: mesh.vertices,
      tets: mesh.tets,
      modes: mfem.modes,
      cubature: mfem.cubature,
      mfemWasm: mfem.per_iteration_ms.median,
      femWasm: fem.per_iteration_ms.median,
      mfemNative: nativeMfem.per_iteration_ms.median,
      femNative: nativeFem.per_iteration_ms.median,
      projection: projectionMs(mesh.vertices, mfem.modes, ctx.quick ? 5 : 21),
      fullMfemNative: full?.per_iteration_ms.median ?? null,
      phases: mfem.phases_ms,
      failedSteps: mfem.failed_steps + fem.failed_steps,
    });
  }
  const speedups = rows
    .filter((r) => r.fullMfemNative !== null)
    .map((r) => `${r.scene} ×${Math.round(r.fullMfemNative / r.mfemNative)}`);
  const femOverMfem = rows.map((r) => r.femWasm / r.mfemWasm);
  const dominant = rows.map((r) => {
    const [name] = Object.entries(r.phases).sort((a, b) => b[1] - a[1])[0];
    return { scene: r.scene, phase: phaseNames[name] };
  });
  const assemblyDominates = dominant.every((d) => d.phase === phaseNames.assembly);
  const phaseRows = rows.flatMap((r) =>
    Object.entries(phaseNames).map(([key, label], order) => ({
      scene: r.scene,
      phase: label,
      order,
      ms: r.phases[key],
    })),
  );
  return {
    id: 'table1-fig10',
    title: 'Table 1 and Fig. 10: time per iteration and per phase',
    paperClaim:
      'A subspace MFEM iteration costs about what a subspace FEM iteration costs (1.2-7.4 ms on the paper’s machine), three orders of magnitude less than full-space MFEM; the step is dominated by the dense K assembly (O(m² |C|)), and the local stretch and multiplier solves add only O(|C|).',
    finding:
      `Per iteration, wasm (2 threads): ${rows.map((r) => `${r.scene} MFEM ${fixed(r.mfemWasm)} ms, FEM ${fixed(r.femWasm)} ms`).join('; ')}` +
      ` (FEM/MFEM ${femOverMfem.map((x) => x.toFixed(2)).join(', ')}).` +
      (speedups.length ? ` Full-space MFEM against native subspace MFEM: ${speedups.join(', ')}.` : '') +
      ` The largest phase: ${dominant.map((d) => `${d.scene} ${d.phase}`).join(', ')}.` +
      (assemblyDominates
        ? ''
        : ' Where another phase leads, the paper’s cost model (the O(m² |C|) assembly dominating) does not describe our run of that scene; the chart has every phase.'),
    holds: assemblyDominates && femOverMfem.every((x) => x > 0.5),
    charts: [
      stackedBars({
        title: 'Fig. 10: an MFEM iteration by phase (wasm, 2 threads)',
        values: phaseRows,
        x: { field: 'scene', title: 'scene' },
        y: { field: 'ms', title: 'time per iteration (ms)' },
        stack: { field: 'phase', title: 'phase', orderField: 'order' },
      }),
    ],
    tables: [
      {
        caption: `Table 1: median ms per solver iteration (${steps} steps of 2 iterations, ${threads} threads; Proj: x = Bu on the CPU for every mesh vertex, in JS)`,
        columns: [
          'scene (paper’s)',
          '|V|',
          '|T|',
          'm',
          '|C|',
          'MFEM wasm',
          'FEM wasm',
          'MFEM native',
          'FEM native',
          'Proj',
          'Full MFEM native',
        ],
        rows: rows.map((r) => [
          `${r.scene} (${r.paper})`,
          r.vertices,
          r.tets,
          r.modes,
          r.cubature,
          fixed(r.mfemWasm),
          fixed(r.femWasm),
          fixed(r.mfemNative),
          fixed(r.femNative),
          fixed(r.projection),
          r.fullMfemNative === null ? '—' : fixed(r.fullMfemNative, 0),
        ]),
      },
    ],
    data: [
      { name: 'timing', rows: rows.map(({ phases, ...r }) => r) },
      { name: 'phases', rows: phaseRows },
    ],
    notes: [
      'The paper’s scenes are larger meshes (|T| 132k-532k); the subspace cost depends on m and |C| only, which we match. Full-space MFEM runs natively on our meshes (one iteration of one step, 2 threads) with a sparse Cholesky solve per iteration, in the full report only.',
      'Timings depend on the machine and its load; the report states the medians it measured, the README says on which machine.',
    ],
    measurements: { rows, dominant },
  };
}
