// Local deformations from JS (createSimulator's localDeformations, docs/local.md): a bar baked in
// wasm with its tet mesh, grabbed at its free end and pulled out, at the page's settings. The drag
// attaches one patch that moves with the pull and leaves after the release; an asset without the
// tet mesh and a malformed option are refused with errors that name them. How far the dent agrees
// with the whole mesh is tested natively (tests/native/validation/local_drag_test.cpp).
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

  /** The render vertex at the middle of the bar's top face, and its rest position. */
  function grabbed(asset) {
    const found = smfem.inspectAsset(asset).sections.find((s) => s.name === 'render.positions');
    const rest = new Float32Array(asset.slice(found.offset, found.offset + found.length).buffer);
    let best = 0;
    const distance = (v) => Math.hypot(rest[3 * v] - 0.2, rest[3 * v + 1] - 0.1, rest[3 * v + 2] - 0.05);
    for (let v = 1; v < rest.length / 3; ++v) if (distance(v) < distance(best)) best = v;
    return { vertex: best, rest: [rest[3 * best], rest[3 * best + 1], rest[3 * best + 2]] };
  }

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

  it('refuses an asset without its tet mesh, and an option that is not true or false', () => {
    expect(() => smfem.createSimulator(withoutMesh, { localDeformations: true })).toThrow(/--full-mesh/);
    expect(() => smfem.createSimulator(withMesh, { localDeformations: 'yes' })).toThrow(
      /localDeformations must be true or false/,
    );
  });
});
