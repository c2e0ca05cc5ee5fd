// The shipped beam, a square cantilever under gravity along -y, sags straight down. Baked with
// the paper's k-means cubature (100 tets) it came to rest 40 degrees sideways (centroid z / y =
// -0.82): the slabs' representative tets sat off the section's diagonals, so one bending became
// three times as soft as the other (docs/cubature.md, "Where k-means loses"). With NNLS and
// EigenFit to its own mesh it sags as far as the fine mesh's modes say, in the plane of the load.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSmfem } from '../../wasm/js/loader.js';

const beam = fileURLToPath(new URL('../../build/native/assets/beam.smfem', import.meta.url));

describe('the beam', () => {
  let smfem;
  beforeAll(async () => {
    smfem = await loadSmfem({ build: 'threads' });
  });
  afterAll(() => smfem?.dispose());

  it('sags in the plane of its load, at the page settings and converged', () => {
    for (const parameters of [{}, { iterations: 100 }]) {
      const simulator = smfem.createSimulator(new Uint8Array(readFileSync(beam)), { parameters });
      try {
        const reports = simulator.step(300);
        const [, y, z] = reports.at(-1).centroid;
        const [, yStart, zStart] = reports[0].centroid;
        expect(yStart - y, JSON.stringify(parameters)).toBeGreaterThan(0.015); // it sags
        expect(Math.abs(z - zStart) / (yStart - y), JSON.stringify(parameters)).toBeLessThan(0.05);
        expect(reports.at(-1).energy.kinetic).toBeLessThan(1e-3); // at rest, not swinging through
      } finally {
        simulator.dispose();
      }
    }
  });
});
