// Side by side (the page's MFEM-against-FEM comparison), the two bodies stand far enough apart
// never to overlap (render/SideBySideStage.js: sideBySideSpacing): each scene stepped by both
// solvers at 2 iterations, as the page runs them, and their drawn bounding boxes, each at its
// offset, checked every 10 steps over 3 s. FEM at 2 iterations is the one that flails.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Box3, Vector3 } from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSmfem } from '../../wasm/js/loader.js';
import { deformedPositions } from '../../wasm/js/report/experiments/equilibrium.js';
import { sideBySideSpacing } from '../../web/src/render/SideBySideStage.js';

const assetOf = (name) => fileURLToPath(new URL(`../../build/native/assets/${name}.smfem`, import.meta.url));

function bounds(positions) {
  const box = new Box3();
  for (let v = 0; v < positions.length; v += 3)
    box.expandByPoint(new Vector3(positions[v], positions[v + 1], positions[v + 2]));
  return box;
}

describe('side by side', () => {
  let smfem;
  beforeAll(async () => {
    smfem = await loadSmfem({ build: 'threads' });
  });
  afterAll(() => smfem?.dispose());

  it.each(['crab', 'pendulum', 'candy'])('MFEM and FEM bodies of %s never overlap over 3 s', (name) => {
    const bytes = new Uint8Array(readFileSync(assetOf(name)));
    const { surface } = smfem.pageAsset(bytes, `${name}.smfem`);
    const spacing = sideBySideSpacing(bounds(surface.positions));
    const simulators = ['mfem', 'fem'].map((solver) =>
      smfem.createSimulator(bytes, { parameters: { solver, iterations: 2 } }),
    );
    try {
      const steps = Math.round(3 / simulators[0].info.parameters.timestep);
      for (let step = 10; step <= steps; step += 10) {
        const boxes = simulators.map((simulator, i) => {
          simulator.step(10);
          const offset = new Vector3((i - 0.5) * spacing, 0, 0);
          return bounds(deformedPositions(surface, simulator.coordinatesF64())).translate(offset);
        });
        expect(boxes[0].intersectsBox(boxes[1]), `${name}, step ${step}`).toBe(false);
      }
    } finally {
      for (const simulator of simulators) simulator.dispose();
    }
  });
});
