// What the page's EigenFit lineup shows (web/src/scenes.js: the rubber bar baked at three
// resolutions, each fitted to a fine mesh), under Node in the wasm build: released under gravity,
// the three bars' centroids move together with the fit and apart without it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSmfem } from '../../wasm/js/loader.js';

const bodies = ['bar', 'bar-fine', 'bar-finest'];
const STEPS = 200; // 2 s at the recipe's 10 ms: about eight periods of the first mode

let smfem;
beforeAll(async () => {
  smfem = await loadSmfem({ build: 'single' });
});
afterAll(() => smfem?.dispose());

// The centroid's height at every step.
function heights(name, eigenFit) {
  const bytes = readFileSync(new URL(`../../build/native/assets/eigenfit/${name}.smfem`, import.meta.url));
  const simulator = smfem.createSimulator(new Uint8Array(bytes), { parameters: { eigenFit } });
  try {
    return simulator.step(STEPS).map((report) => report.centroid[1]);
  } finally {
    simulator.dispose();
  }
}

// Each coarser bar's RMS distance from the finest, relative to how far the finest moves.
function spread(eigenFit) {
  const runs = bodies.map((name) => heights(name, eigenFit));
  const finest = runs.at(-1);
  const range = Math.max(...finest.map((y) => Math.abs(y - finest[0])));
  const rms = (run) => Math.sqrt(run.reduce((sum, y, i) => sum + (y - finest[i]) ** 2, 0) / run.length);
  return runs.slice(0, -1).map((run) => rms(run) / range);
}

describe('the EigenFit lineup', () => {
  it('swings together with the fit and apart without it', () => {
    // Measured (4 fitted modes) against the 310k-tet bar: with the fit 2.5 % (4.2k tets) and
    // 6.2 % (39k), without 34 % and 97 %.
    const fitted = spread(true);
    const unfitted = spread(false);
    fitted.forEach((s, i) => {
      expect(s, bodies[i]).toBeLessThan(0.1);
      expect(unfitted[i], bodies[i]).toBeGreaterThan(0.15);
      expect(s, bodies[i]).toBeLessThan(0.3 * unfitted[i]);
    });
  });
});
