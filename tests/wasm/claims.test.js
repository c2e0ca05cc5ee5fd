// The claims suite's quick subset (`npx smfem claims --quick`) on the threaded wasm build: the
// product's claim, asserted with margins taken from the measurements in docs/claim.md (every quick
// scene measured MFEM at 2 iterations 10x or more closer to the converged angular momentum than
// FEM at 2, and MFEM at 1 and 2 iterations within 1 % of the converged peak kinetic energy).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatClaims, readSuite, runClaims, wasmEvaluator } from '../../wasm/js/claims.js';
import { loadSmfem } from '../../wasm/js/loader.js';

const run = (scene, label) => scene.runs.find((r) => r.label === label);

// Converged MFEM and FEM steps agree to 1e-6 (mass norm) everywhere but on the 1e6 slab, whose
// subspace is so ill-conditioned that neither solver converges in its first steps (docs/claim.md).
const AGREEMENT = { 'bunny-slab-thin-1e6': 2e-5 };

// Where the converged iteration counts of both solvers follow the bake, not the method: on the
// thin 1e6 slab, 18 bakes (cubature seeds, native and wasm) took MFEM 6.7-23.8 iterations a step
// and FEM 8.6-22.4, MFEM the more in 5 (the browser's bake of the recipe among them: 15.4 against
// 13.1). Every other quick scene kept MFEM 1.5x to 7x below FEM on every bake (docs/claim.md,
// "The bake's seed").
const ITERATIONS_TURN_ON_THE_BAKE = ['bunny-slab-thin-1e6'];

describe('claims suite, quick subset (wasm)', () => {
  let smfem;
  let result;

  beforeAll(async () => {
    smfem = await loadSmfem({ build: 'threads', tools: true });
    result = await runClaims(wasmEvaluator(smfem), { quick: true });
  }, 600_000);

  afterAll(() => smfem?.dispose());

  it('runs every scene the suite marks quick', async () => {
    const suite = await readSuite();
    const quick = suite.scenes
      .filter((s) => s.quick)
      .map((s) => s.asset.replace(/^.*\//, '').replace('.smfem', ''));
    expect(result.scenes.map((s) => s.scene)).toEqual(quick);
    expect(formatClaims(result)).toContain('| scene');
  });

  it('MFEM at 2 iterations keeps the angular momentum far better than FEM at 2', () => {
    for (const scene of result.scenes) {
      const mfem = run(scene, 'mfem-curvature-2').angularMomentumError;
      const fem = run(scene, 'fem-2').angularMomentumError;
      expect(mfem, scene.scene).toBeLessThan(fem / 3);
      expect(scene.verdicts.mfem2KeepsMomentum, scene.scene).toBe(true);
    }
  });

  it('MFEM at 1 and 2 iterations neither blows up nor stalls', () => {
    for (const scene of result.scenes) {
      for (const label of ['mfem-curvature-1', 'mfem-curvature-2']) {
        const r = run(scene, label);
        expect(r.failedSteps, `${scene.scene} ${label}`).toBe(0);
        expect(r.peakKineticRatio, `${scene.scene} ${label}`).toBeLessThan(1.05);
        if (r.lateKineticRatio !== null)
          expect(r.lateKineticRatio, `${scene.scene} ${label}`).toBeGreaterThan(0.9);
      }
      expect(scene.verdicts.mfemNoBlowUp && scene.verdicts.mfemNoStall, scene.scene).toBe(true);
    }
  });

  it('converges in fewer iterations than FEM, to the same steps', () => {
    for (const scene of result.scenes) {
      const mfem = run(scene, 'mfem-curvature-converged');
      const fem = run(scene, 'fem-converged');
      if (!ITERATIONS_TURN_ON_THE_BAKE.includes(scene.scene))
        expect(mfem.iterationsPerStep, scene.scene).toBeLessThanOrEqual(fem.iterationsPerStep);
      expect(scene.agreement, scene.scene).toBeLessThan(AGREEMENT[scene.scene] ?? 1e-6);
    }
  });
});
