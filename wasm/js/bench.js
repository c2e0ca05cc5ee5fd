// The wasm twin of the native build/bin/smfem-bench (wasm/bench/smfem_bench.cpp), behind
// `npx smfem bench` and the report's Table 1: the same scene (a drag spring on render vertex 0
// pulled 0.2 m up, gravity), 5 untimed warm-up steps, then per-iteration and per-phase medians
// of S steps, under the native tool's JSON names.

const median = (values) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const summary = (values) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });

// Render vertex 0's rest position, from the asset's render.positions section (f32, little-endian).
function restPosition(smfem, bytes) {
  const section = smfem.inspectAsset(bytes).sections.find((s) => s.name === 'render.positions');
  const view = new DataView(bytes.buffer, bytes.byteOffset + section.offset, 12);
  return [0, 1, 2].map((d) => view.getFloat32(4 * d, true));
}

/**
 * Times a simulator of `bytes` in a loaded module. options: { solver, iters, steps, threads,
 * float, localDeformations, sourceName }; warnings go to `warn`. With localDeformations the drag
 * attaches a patch at render vertex 0 (the asset needs its tet mesh: smfem-bake --full-mesh).
 */
export function benchSimulator(
  smfem,
  bytes,
  options,
  warn = (w) => process.stderr.write(`smfem: warning: ${w}\n`),
) {
  const parameters = {
    iterations: options.iters,
    untilConverged: false,
    floatStiffness: options.float ?? false,
  };
  if (options.solver) parameters.solver = options.solver;
  const simulator = smfem.createSimulator(bytes, {
    sourceName: options.sourceName,
    threads: options.threads,
    parameters,
    localDeformations: options.localDeformations ?? false,
  });
  try {
    simulator.warnings().forEach(warn);
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
    return {
      build: `wasm-${smfem.build}`,
      solver: info.parameters.solver,
      modes: info.modes,
      cubature: info.cubature,
      threads: info.threads,
      float_stiffness: parameters.floatStiffness,
      local_patches: simulator.localPatches().length,
      iterations_per_step: info.parameters.iterations, // as the solver clamped it
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
  } finally {
    simulator.dispose();
  }
}
