// Subspace MFEM (Trusty et al. 2023), Fig. 2 (the crab, hard shell on soft joints, pinned by a hind
// leg, falling under gravity) and Fig. 13 (the pendulum, one material but thick blocks on thin
// links, unwinding from a twist): angular momentum over time for MFEM and FEM at a fixed 1, 2 (and
// for the crab 4) iterations per step against a converged run. Truncated runs take exactly their
// iterations (no energy check: the paper's setting); every run starts from the same state.
import { lineChart } from '../chart.js';

const truncated = [
  { label: 'MFEM, 1 iteration', solver: 'mfem', iterations: 1 },
  { label: 'MFEM, 2 iterations', solver: 'mfem', iterations: 2 },
  { label: 'FEM, 1 iteration', solver: 'fem', iterations: 1 },
  { label: 'FEM, 2 iterations', solver: 'fem', iterations: 2 },
  { label: 'FEM, 4 iterations', solver: 'fem', iterations: 4 },
];
const converged = { label: 'converged', solver: 'mfem', iterations: 200, untilConverged: true };

const parametersOf = ({ solver, iterations, untilConverged = false }) => ({
  solver,
  iterations,
  untilConverged,
  energyCheck: untilConverged,
});

/** Steps `steps` times from `start` (a snapshot, or rest); angular momentum and time per step. */
function trace(smfem, bytes, run, start, steps) {
  const simulator = smfem.createSimulator(bytes, { parameters: parametersOf(run) });
  try {
    if (start) simulator.restore(start);
    const out = [];
    let failed = 0;
    for (let i = 0; i < steps; ++i) {
      const [report] = simulator.step(1);
      if (!report.ok) ++failed;
      out.push({ time: report.time, L: report.angularMomentum, stepMs: report.stepMs });
    }
    return { run, out, failed };
  } finally {
    simulator.dispose();
  }
}

/** The state after the scene's own loads wind it up for `seconds` (converged steps). */
function windUp(smfem, bytes, seconds) {
  const simulator = smfem.createSimulator(bytes, { parameters: parametersOf(converged) });
  try {
    simulator.step(Math.round(seconds / simulator.info.parameters.timestep));
    return simulator.snapshot();
  } finally {
    simulator.dispose();
  }
}

const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** The coordinate axis along which the converged angular momentum varies most. */
function dominantAxis(reference) {
  const rms = [0, 1, 2].map((d) => Math.hypot(...reference.out.map((s) => s.L[d])));
  const d = rms.indexOf(Math.max(...rms));
  return { name: 'xyz'[d], vector: [0, 1, 2].map((k) => (k === d ? 1 : 0)) };
}

/** RMS over the steps of the difference to the converged L (along the axis), over its peak. */
function relativeError(run, reference, axis) {
  const ref = reference.out.map((s) => dot(s.L, axis.vector));
  const peak = Math.max(...ref.map(Math.abs));
  const squares = run.out.map((s, i) => (dot(s.L, axis.vector) - ref[i]) ** 2);
  return Math.sqrt(squares.reduce((a, b) => a + b, 0) / squares.length) / peak;
}

async function scene(ctx, { name, figure, windUpSeconds, seconds }) {
  const bytes = await ctx.asset(`${name}.smfem`);
  const start = windUpSeconds ? windUp(ctx.smfem, bytes, windUpSeconds) : null;
  const probe = ctx.smfem.createSimulator(bytes, {});
  const { timestep } = probe.info.parameters;
  probe.dispose();
  const steps = Math.round(seconds / timestep);
  ctx.log(`${figure}: ${name}, ${steps} steps per run`);
  const reference = trace(ctx.smfem, bytes, converged, start, steps);
  const runs = truncated
    .filter((run) => name === 'crab' || run.iterations < 4)
    .map((run) => trace(ctx.smfem, bytes, run, start, steps));
  const axis = dominantAxis(reference);
  const t0 = windUpSeconds ?? 0;
  const rows = [reference, ...runs].flatMap(({ run, out }) =>
    out.map((s) => ({ scene: name, run: run.label, time: s.time - t0, L: dot(s.L, axis.vector) })),
  );
  const errors = Object.fromEntries(runs.map((r) => [r.run.label, relativeError(r, reference, axis)]));
  // A run that diverges would scale the axis until every other line is flat: the plot keeps the
  // converged run's range (with a margin) and clips, and the finding names what left it.
  const peakOf = ({ out }) => Math.max(...out.map((s) => Math.abs(dot(s.L, axis.vector))));
  const referencePeak = peakOf(reference);
  const range = 2 * referencePeak;
  const offScale = Object.fromEntries(
    runs
      .map((r) => [r.run.label, peakOf(r)])
      .filter(([, peak]) => peak > range)
      .map(([label, peak]) => [label, peak / referencePeak]),
  );
  const failed = Object.fromEntries(runs.map((r) => [r.run.label, r.failed]));
  return {
    name,
    figure,
    axis: axis.name,
    steps,
    timestep,
    errors,
    failed,
    offScale,
    rows,
    chart: lineChart({
      title: `${figure}: ${name}, angular momentum about the origin`,
      values: rows,
      x: { field: 'time', title: windUpSeconds ? 'time after release (s)' : 'time (s)' },
      y: {
        field: 'L',
        title: `L_${axis.name} (kg m²/s)`,
        ...(Object.keys(offScale).length ? { domain: [-range, range] } : {}),
      },
      series: { field: 'run', title: 'solver' },
    }),
  };
}

const percent = (x) => `${(100 * x).toFixed(1)} %`;

export async function momentumFigures(ctx) {
  const seconds = ctx.quick ? 1 : 3;
  const scenes = [
    await scene(ctx, { name: 'crab', figure: 'Fig. 2', seconds }),
    await scene(ctx, { name: 'pendulum', figure: 'Fig. 13', windUpSeconds: 1.5, seconds }),
  ];
  const wins = scenes.flatMap((s) =>
    [1, 2].map(
      (k) =>
        s.errors[`MFEM, ${k} iteration${k > 1 ? 's' : ''}`] <
        s.errors[`FEM, ${k} iteration${k > 1 ? 's' : ''}`],
    ),
  );
  const describe = (s) =>
    `${s.name}: ${Object.entries(s.errors)
      .map(
        ([label, e]) =>
          `${label} ${percent(e)}${s.failed[label] ? ` (${s.failed[label]} failed steps)` : ''}${
            s.offScale[label]
              ? ` (diverged: |L| reached ${s.offScale[label].toFixed(0)} times the converged peak, clipped in the plot)`
              : ''
          }`,
      )
      .join(', ')}`;
  return {
    id: 'fig2-13',
    title: 'Fig. 2 and 13: angular momentum at 1-2 iterations',
    paperClaim:
      'At 1-2 iterations per step, subspace MFEM keeps the rotational motion of heterogeneous bodies (the crab: stiff shell, soft joints) and of geometrically heterogeneous ones (the pendulum: thick blocks, thin links); subspace FEM damps it, even at 4 iterations.',
    finding:
      `RMS error of the angular momentum against the converged run, relative to its peak: ${scenes.map(describe).join('; ')}. ` +
      `MFEM beats FEM at equal iterations in ${wins.filter(Boolean).length} of ${wins.length} comparisons.`,
    holds: wins.every(Boolean),
    charts: scenes.map((s) => s.chart),
    data: [{ name: 'angular-momentum', rows: scenes.flatMap((s) => s.rows) }],
    notes: [
      `The paper plots the angular momentum of each pendulum block; we plot the body's total, along the axis where the converged run's varies most (${scenes.map((s) => `${s.name}: ${s.axis}`).join(', ')}).`,
      `Time steps: ${scenes.map((s) => `${s.name} ${s.timestep} s × ${s.steps}`).join(', ')}.`,
    ],
    measurements: Object.fromEntries(
      scenes.map((s) => [s.name, { errors: s.errors, failed: s.failed, offScale: s.offScale }]),
    ),
  };
}
