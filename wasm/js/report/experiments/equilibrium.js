// Static equilibrium for the report's figures: implicit Euler with long converged steps damps
// the motion away; the state is at rest when the kinetic energy has fallen below 1e-9 of the
// elastic one. The beam's centre line is the mean displacement of the render surface in slices
// along x.
const slices = 24;

/** Render vertices moved by u: x = X + sum_i w_i A_i [X; 1] (loader.d.ts: coordinates). */
export function deformedPositions(surface, u) {
  const { positions, weights, vertexCount, modeCount: m } = surface;
  const out = new Float64Array(3 * vertexCount);
  for (let v = 0; v < vertexCount; ++v) {
    const X = [positions[3 * v], positions[3 * v + 1], positions[3 * v + 2], 1];
    for (let d = 0; d < 3; ++d) {
      let x = X[d];
      for (let i = 0; i < m; ++i) {
        const w = weights[v * m + i];
        for (let k = 0; k < 4; ++k) x += w * u[4 * m * d + 4 * i + k] * X[k];
      }
      out[3 * v + d] = x;
    }
  }
  return out;
}

/** Runs to rest; returns the final u, steps taken and whether it settled. */
export function settle(smfem, bytes, parameters) {
  const simulator = smfem.createSimulator(bytes, {
    parameters: { ...parameters, timestep: 0.1, untilConverged: true, iterations: 200 },
  });
  try {
    for (let step = 1; step <= 200; ++step) {
      const [report] = simulator.step(1);
      if (!report.ok) return { settled: false, steps: step };
      if (step > 5 && report.energy.kinetic < 1e-9 * Math.abs(report.energy.elastic))
        return { settled: true, steps: step, u: simulator.coordinatesF64(), elastic: report.energy.elastic };
    }
    return { settled: false, steps: 200, u: simulator.coordinatesF64() };
  } finally {
    simulator.dispose();
  }
}

export function centreLine(surface, displaced) {
  const n = surface.vertexCount;
  let lo = Infinity,
    hi = -Infinity;
  for (let v = 0; v < n; ++v) {
    lo = Math.min(lo, surface.positions[3 * v]);
    hi = Math.max(hi, surface.positions[3 * v]);
  }
  const sum = new Float64Array(slices),
    count = new Float64Array(slices);
  for (let v = 0; v < n; ++v) {
    const slice = Math.min(slices - 1, Math.floor(((surface.positions[3 * v] - lo) / (hi - lo)) * slices));
    sum[slice] += displaced[3 * v + 1] - surface.positions[3 * v + 1];
    count[slice] += 1;
  }
  return Array.from(sum, (s, i) => ({
    x: lo + ((i + 0.5) * (hi - lo)) / slices,
    sag: count[i] ? s / count[i] : 0,
  }));
}
