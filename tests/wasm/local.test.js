// Local deformations from JS (createSimulator's localDeformations, docs/local.md): a bar baked in
// wasm with its tet mesh, grabbed at its free end and pulled out, at the page's settings. The drag
// attaches one patch that moves with the pull and leaves after the release; an asset without the
// tet mesh and a malformed option are refused with errors that name them. The shipped bunny pulled
// far by its ear follows the hand as it does without local deformations. How far the dent agrees
// with the whole mesh is tested natively (tests/native/validation/local_drag_test.cpp).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBake } from '../../precompute/js/bake.js';
import { loadSmfem } from '../../wasm/js/loader.js';
import { gridTets, medit } from './test_meshes.js';

describe('local deformations in the wasm module', () => {
  let baker, smfem, withMesh, withoutMesh;

  beforeAll(async () => {
    [baker, smfem] = await Promise.all([loadBake(), loadSmfem()]);
    const bar = new TextEncoder().encode(medit(gridTets(16, 4, 4, 0.025))); // 0.4 x 0.1 x 0.1 m
    const args = ['bar.mesh', '--modes', '8', '--youngs', '1e5', '--poisson', '0.4', '--density', '1000'];
    withMesh = baker.bake([{ name: 'bar.mesh', bytes: bar.slice() }], [...args, '--full-mesh']).asset;
    withoutMesh = baker.bake([{ name: 'bar.mesh', bytes: bar.slice() }], args).asset;
  }, 300_000);

  afterAll(() => {
    baker?.dispose();
    smfem?.dispose();
  });

  /** The render vertex of `asset` nearest `point`, and its rest position. */
  function nearestRenderVertex(asset, point) {
    const found = smfem.inspectAsset(asset).sections.find((s) => s.name === 'render.positions');
    const rest = new Float32Array(asset.slice(found.offset, found.offset + found.length).buffer);
    let best = 0;
    const distance = (v) => Math.hypot(...point.map((x, k) => rest[3 * v + k] - x));
    for (let v = 1; v < rest.length / 3; ++v) if (distance(v) < distance(best)) best = v;
    return { vertex: best, rest: [rest[3 * best], rest[3 * best + 1], rest[3 * best + 2]] };
  }

  /** The render vertex at the middle of the bar's top face, and its rest position. */
  const grabbed = (asset) => nearestRenderVertex(asset, [0.2, 0.1, 0.05]);

  it('attaches a patch where the drag grabs, which moves with the pull and leaves after the release', () => {
    const simulator = smfem.createSimulator(withMesh, {
      parameters: { gravity: [0, 0, 0], iterations: 2, timestep: 1 / 60 },
      localDeformations: true,
    });
    const { vertex, rest } = grabbed(withMesh);
    expect(simulator.localPatches()).toEqual([]);
    simulator.dragStart(vertex, rest, 2e4);
    expect(simulator.localPatches()).toHaveLength(1);
    for (let step = 1; step <= 20; ++step) {
      simulator.dragMove([rest[0], rest[1] + 0.0025 * step, rest[2]]);
      const [report] = simulator.step(1);
      expect(report.ok, `step ${step}`).toBe(true);
    }
    const [patch] = simulator.localPatches();
    expect(patch.centre.every(Number.isFinite)).toBe(true);
    expect(patch.frame).toHaveLength(9);
    // Pulled up 5 cm, the free bar mostly follows the hand; its dent (0.09 mm, 2026-11-30) is far
    // above rounding.
    expect(Math.hypot(...patch.coefficients)).toBeGreaterThan(1e-6);
    simulator.dragEnd();
    const reports = simulator.step(90); // 1.5 s: a patch leaves within 1 s of its release
    expect(reports.every((report) => report.ok)).toBe(true);
    expect(simulator.localPatches()).toEqual([]);
    simulator.dispose();
  });

  // A drag whose energy had no floor (docs/local.md, "A drag that ran away"): the bunny's ear pulled
  // 0.3 m up, 1 cm a step, and held, at the page's settings in zero gravity, by both solvers. The
  // elastic energy fell below zero at step 30 and reached -1e151 J by step 36 (FEM), the body
  // 1e29 m away; random drags of its four grab points ran away in 9 of 12.
  it.each(['mfem', 'fem'])(
    'pulls the shipped bunny far by its ear as without local deformations (%s)',
    (solver) => {
      const bunny = new Uint8Array(
        readFileSync(new URL('../../build/native/assets/bunny.full.smfem', import.meta.url)),
      );
      const { vertex, rest } = nearestRenderVertex(bunny, [-0.1539, 0.1789, 0.0437]);
      const pulled = (localDeformations) => {
        const simulator = smfem.createSimulator(bunny, {
          parameters: { gravity: [0, 0, 0], solver },
          localDeformations,
        });
        const stiffness = simulator.info.totalMass * (4 * Math.PI) ** 2; // the page's (dragStiffness.js)
        simulator.dragStart(vertex, rest, stiffness);
        let lowest = Infinity;
        let patches = 0;
        for (let step = 1; step <= 60; ++step) {
          simulator.dragMove([rest[0], rest[1] + 0.01 * Math.min(step, 30), rest[2]]);
          const [report] = simulator.step(1);
          expect(report.ok, `step ${step}`).toBe(true);
          lowest = Math.min(lowest, report.energy.elastic);
          patches = Math.max(patches, simulator.localPatches().length);
        }
        // The hand's distance from the grabbed point, from the spring's energy k/2 |x - t|^2.
        const gap = Math.sqrt((2 * simulator.diagnostics().energy.spring) / stiffness);
        simulator.dispose();
        return { lowest, gap, patches };
      };
      const [withPatches, without] = [pulled(true), pulled(false)];
      console.log(
        `bunny pulled 0.3 m by its ear (${solver}): the hand ${(1000 * withPatches.gap).toFixed(1)} mm from the ` +
          `grabbed point with local deformations, ${(1000 * without.gap).toFixed(1)} mm without; lowest elastic ` +
          `energy ${withPatches.lowest.toExponential(2)} J`,
      );
      expect(withPatches.patches).toBe(1);
      expect(withPatches.lowest).toBeGreaterThanOrEqual(0);
      expect(withPatches.gap).toBeLessThan(1.5 * without.gap);
    },
  );

  it('refuses an asset without its tet mesh, and an option that is not true or false', () => {
    expect(() => smfem.createSimulator(withoutMesh, { localDeformations: true })).toThrow(/--full-mesh/);
    expect(() => smfem.createSimulator(withMesh, { localDeformations: 'yes' })).toThrow(
      /localDeformations must be true or false/,
    );
  });
});
