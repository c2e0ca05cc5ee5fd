// The stepper's JS API (wasm/js/loader.js: createSimulator) in both builds, against the native
// build: the same asset and inputs must give the same trajectory (build/bin/smfem-run).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSmfem } from '../../wasm/js/loader.js';
import { relativeDifference } from './relative_difference.js';
import { syntheticAsset } from '../../wasm/js/synthetic_asset.js';
import { materialModelLabels } from '../../wasm/js/material_models.js';

const runTool = fileURLToPath(new URL('../../build/bin/smfem-run', import.meta.url));

// A small box: 4 modes, 48 cubature tets, soft and stiff halves (1e5 / 1e7 Pa).
const MODES = 4;
const CUBATURE = 48;
const PARAMETERS = { solver: 'mfem', iterations: 2, timestep: 1 / 60, gravity: [0, -9.81, 0] };
const DRAG = { vertex: 0, offset: [0, 0.2, 0], stiffness: 1e4 };
const STEPS = 12;

function nativeTrajectory(parameters) {
  const out = execFileSync(runTool, [
    '--synthetic',
    String(MODES),
    String(CUBATURE),
    '--steps',
    String(STEPS),
    '--parameters',
    JSON.stringify(parameters),
    '--drag',
    String(DRAG.vertex),
    ...dragTarget().map(String),
    String(DRAG.stiffness),
  ]);
  return JSON.parse(out.toString());
}

// The box's render vertex 0 is its corner at the origin (sim/fixtures/box_model.cpp).
const dragTarget = () => DRAG.offset;

describe.each(['threads', 'single'])('simulator, %s build', (build) => {
  let smfem;
  let asset;
  beforeAll(async () => {
    smfem = await loadSmfem({ build });
    asset = syntheticAsset(MODES, CUBATURE);
  });
  afterAll(() => smfem?.dispose());

  it('describes itself and starts at rest', () => {
    const simulator = smfem.createSimulator(asset, { parameters: PARAMETERS });
    const info = simulator.info;
    expect(info.modes).toBe(MODES);
    expect(info.cubature).toBe(CUBATURE);
    expect(info.threads).toBe(build === 'threads' ? 2 : 1);
    expect(info.parameters.solver).toBe('mfem');
    const u = simulator.coordinates();
    expect(u).toBeInstanceOf(Float32Array);
    expect(u.length).toBe(12 * MODES);
    expect(u.every((x) => x === 0)).toBe(true);
    const { energy } = simulator.diagnostics();
    expect(energy.kinetic).toBe(0);
    expect(energy.elastic).toBeLessThan(1e-12);
    simulator.dispose();
  });

  for (const solver of ['mfem', 'fem']) {
    it(`follows the native trajectory (${solver}, ${STEPS} steps, drag and gravity) to 1e-12`, () => {
      const parameters = { ...PARAMETERS, solver };
      const native = nativeTrajectory(parameters);
      const simulator = smfem.createSimulator(asset, { parameters });
      simulator.dragStart(DRAG.vertex, dragTarget(), DRAG.stiffness);
      let worst = 0;
      for (const reference of native.steps) {
        const [report] = simulator.step(1);
        expect(report.ok).toBe(true);
        expect(report.iterations).toBe(reference.iterations);
        worst = Math.max(worst, relativeDifference(simulator.coordinatesF64(), reference.u));
      }
      expect(worst).toBeLessThan(1e-12);
      simulator.dispose();
    });
  }

  it("offers exactly the page's material models (one list per language, checked here)", () => {
    const simulator = smfem.createSimulator(asset, { parameters: PARAMETERS });
    for (const model of Object.keys(materialModelLabels)) {
      simulator.setParameters({ materialModel: model });
      expect(simulator.info.parameters.materialModel).toBe(model);
    }
    const names = Object.keys(materialModelLabels).map((model) => `"${model}"`);
    const choices = `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
    expect(() => simulator.setParameters({ materialModel: 'rubber' })).toThrow(`must be ${choices}`);
    simulator.dispose();
  });

  it('reports diagnostics per step', () => {
    const simulator = smfem.createSimulator(asset, { parameters: PARAMETERS });
    const reports = simulator.step(3);
    expect(reports).toHaveLength(3);
    const [first] = reports;
    expect(first.ok).toBe(true);
    expect(first.iterations).toBe(2);
    expect(first.decrement).toBeGreaterThan(0);
    expect(first.lineSearchSteps).toBeGreaterThanOrEqual(0);
    expect(Object.keys(first.phasesMs).sort()).toEqual([
      'assembly',
      'lineSearch',
      'linearization',
      'localUpdate',
      'prediction',
      'solve',
    ]);
    // Falling under gravity: momentum points down, energy is in the expected terms.
    expect(reports[2].linearMomentum[1]).toBeLessThan(0);
    expect(reports[2].energy.kinetic).toBeGreaterThan(0);
    expect(reports[2].time).toBeCloseTo(3 / 60, 12);
    expect(simulator.diagnostics().stepCount).toBe(3);
    simulator.dispose();
  });

  it('snapshots, restores bit for bit and resets', () => {
    const simulator = smfem.createSimulator(asset, { parameters: PARAMETERS });
    simulator.dragStart(0, dragTarget(), DRAG.stiffness);
    simulator.step(4);
    const snapshot = simulator.snapshot();
    expect(snapshot).toBeInstanceOf(Uint8Array);
    simulator.step(3);
    const after = simulator.coordinatesF64();
    simulator.restore(snapshot);
    simulator.step(3);
    expect(simulator.coordinatesF64()).toEqual(after);
    simulator.reset();
    expect(simulator.coordinates().every((x) => x === 0)).toBe(true);
    expect(simulator.diagnostics().time).toBe(0);
    expect(() => simulator.restore(snapshot.subarray(0, snapshot.length - 1))).toThrow(/state blob has/);
    expect(() => simulator.restore(snapshot.subarray(1))).toThrow(/not a simulator state blob/);
    simulator.dispose();
  });

  it('changes parameters and materials at run time, clamping absurd values with warnings', () => {
    const simulator = smfem.createSimulator(asset, { parameters: PARAMETERS });
    simulator.setParameters({
      solver: 'fem',
      iterations: 5000,
      timestep: -1,
      materials: [{ region: 1, youngs: 1e30 }],
    });
    const { parameters } = simulator.info;
    expect(parameters.solver).toBe('fem');
    expect(parameters.iterations).toBe(200);
    expect(parameters.timestep).toBe(1e-5);
    const warnings = simulator.warnings().join('\n');
    // The value given, not one clamped on the way in.
    expect(warnings).toMatch(/iterations 5000 is outside \[1, 200\]/);
    expect(warnings).toMatch(/timestep/);
    expect(warnings).toMatch(/region 1: Young's modulus/);
    expect(simulator.warnings()).toEqual([]);
    simulator.setParameters({ iterations: -3 });
    expect(simulator.warnings().join()).toMatch(/iterations -3 is outside/);
    simulator.setParameters({ iterations: 1e9 });
    expect(simulator.warnings().join()).toMatch(/iterations 1000000000 is outside/);
    expect(() => simulator.setParameters({ solver: 'magic' })).toThrow(/parameter solver/);
    expect(() => simulator.setParameters({ speed: 3 })).toThrow(
      /parameter speed: is not a simulator parameter/,
    );
    simulator.dispose();
  });

  it('drags a surface point towards the target', () => {
    const simulator = smfem.createSimulator(asset, { parameters: { ...PARAMETERS, gravity: [0, 0, 0] } });
    simulator.dragStart(0, [0, 0.3, 0], 1e4);
    simulator.step(30);
    expect(simulator.diagnostics().energy.spring).toBeGreaterThan(0);
    const moved = simulator.diagnostics().centroid[1];
    expect(moved).toBeGreaterThan(0);
    simulator.dragMove([0, 0.6, 0]);
    simulator.step(5);
    simulator.dragEnd();
    expect(simulator.diagnostics().energy.spring).toBe(0);
    expect(() => simulator.dragStart(1e9, [0, 0, 0], 1)).toThrow(/render vertex/);
    // Indices as given: NaN and 1.7 were taken as 0 and 1 (a spring on another vertex, no word),
    // 1e12 was named as a wrapped -727379968.
    for (const [vertex, words] of [
      [NaN, 'render vertex NaN is not an index'],
      [1.7, 'render vertex 1.7 is not an index'],
      [1e12, 'render vertex 1e+12 is not an index'],
    ]) {
      expect(() => simulator.dragStart(vertex, [0, 0, 0], 1)).toThrow(words);
    }
    // A misspelt key of a materials entry, and a source name that is not a string, named.
    expect(() => simulator.setParameters({ materials: [{ region: 1, youngs: 1e6, possion: 0.3 }] })).toThrow(
      'parameter materials: unknown key "possion" (an entry takes region, youngs, poisson)',
    );
    expect(() => smfem.createSimulator(asset, { sourceName: 42 })).toThrow(
      'smfem: createSimulator: sourceName must be a string, not number',
    );
    simulator.dispose();
  });

  it("applies an asset's EigenFit unless eigenFit is false", () => {
    const fitted = syntheticAsset(MODES, CUBATURE, { eigenFit: 3 });
    const run = (bytes, parameters) => {
      const simulator = smfem.createSimulator(bytes, { parameters: { ...PARAMETERS, ...parameters } });
      const info = simulator.info;
      simulator.dragStart(DRAG.vertex, dragTarget(), DRAG.stiffness);
      simulator.step(STEPS);
      const u = simulator.coordinatesF64();
      simulator.dispose();
      return { info, u };
    };
    const on = run(fitted, {});
    expect(on.info.eigenFit.modes).toBe(3);
    expect(on.info.eigenFit.ratios).toEqual([0.7, 0.7, 0.7]);
    on.info.eigenFit.fineHz.forEach((f, i) =>
      expect(f).toBeCloseTo(Math.sqrt(0.7) * on.info.eigenFit.coarseHz[i], 9),
    );
    expect(on.info.parameters.eigenFit).toBe(true);
    const off = run(fitted, { eigenFit: false });
    expect(off.info.parameters.eigenFit).toBe(false);
    const plain = run(syntheticAsset(MODES, CUBATURE), {});
    expect(plain.info.eigenFit).toBeNull();
    // Off is the asset without a fit, bit for bit; on moves differently.
    expect(Array.from(off.u)).toEqual(Array.from(plain.u));
    expect(relativeDifference(on.u, plain.u)).toBeGreaterThan(1e-4);
    expect(() => smfem.createSimulator(fitted, { parameters: { eigenFit: 'yes' } })).toThrow(
      'parameter eigenFit: must be a boolean',
    );
  });

  it('refuses a corrupt asset with the reader error, and bad options', () => {
    const broken = asset.slice();
    broken[broken.length - 5] ^= 0x10;
    expect(() => smfem.createSimulator(broken, { sourceName: 'broken.smfem' })).toThrow(
      /broken\.smfem.*checksum/,
    );
    expect(() => smfem.createSimulator(asset, { threads: 'many' })).toThrow(/threads/);
    // 0 and -1 ran on one thread without a word; 2.5 was refused as "not an integer".
    for (const threads of [0, -1, 2.5, 1e10]) {
      expect(() => smfem.createSimulator(asset, { threads })).toThrow(
        /parameter threads: must be a whole number in \[1, 1024\], not/,
      );
    }
    expect(() => smfem.createSimulator(asset, { parameters: { gravity: [0, 1] } })).toThrow(/gravity/);
    // A key it does not take ran the defaults without a word.
    expect(() => smfem.createSimulator(asset, { solver: 'fem' })).toThrow(/unknown option solver/);
    expect(() => smfem.createSimulator(asset, { parameter: {} })).toThrow(/unknown option parameter /);
  });

  it('refuses a step count or a parameter object it would otherwise truncate or choke on', () => {
    const simulator = smfem.createSimulator(asset);
    for (const [count, type] of [
      ['2', 'string'],
      [null, 'object'],
    ]) {
      expect(() => simulator.step(count)).toThrow(`smfem: step takes a number of steps, not ${type}`);
    }
    for (const count of [2.7, NaN, -1, 2 ** 32 + 1]) {
      expect(() => simulator.step(count)).toThrow(/is not a whole number in \[0, 100000\]/);
    }
    expect(() => simulator.step(1e10)).toThrow('step count 1e+10 is not'); // not wrapped to 1410065408
    expect(simulator.info.parameters.iterations).toBe(2);
    expect(() => simulator.setParameters()).toThrow(/takes an object of parameters/);
    // A grab at a point that is not finite holds the body, at rest without gravity, where it is;
    // it pulled the vertex to the origin.
    simulator.setParameters({ gravity: [0, 0, 0] });
    simulator.dragStart(5, [NaN, NaN, NaN], 1e4);
    expect(simulator.step(1)[0].energy.spring).toBe(0);
    expect(simulator.warnings().join()).toMatch(/drag target is not finite or beyond 1e6 m/);
    // Nor one a world away: at 1e30 m the spring's energy was 5e63 J and the body froze.
    simulator.dragStart(5, [0, 1e30, 0], 1e4);
    expect(simulator.step(1)[0].energy.spring).toBe(0);
    simulator.dragStart(5, [0, 0, 0], 1e4);
    expect(simulator.step(1)[0].energy.spring).toBeGreaterThan(0);
    simulator.dispose();
  });

  it('says when every retry gained energy and none converged, and only then', () => {
    // Balanced: the box falling at the test's settings.
    const plain = smfem.createSimulator(asset, { parameters: PARAMETERS });
    expect(plain.step(STEPS).some((r) => r.energyUnbalanced)).toBe(false);
    plain.dispose();
    // FEM allowed two backtracks and no tolerance, its corner yanked 3 m by a stiff spring at
    // 0.1 s steps: no retry converges, and each gains energy.
    const yanked = smfem.createSimulator(asset, {
      parameters: {
        ...PARAMETERS,
        solver: 'fem',
        iterations: 1,
        timestep: 0.1,
        maxBacktracks: 2,
        relativeTolerance: 0,
        absoluteTolerance: 0,
      },
    });
    yanked.dragStart(0, [0, 3, 0], 1e6);
    const reports = yanked.step(10);
    const unbalanced = reports.filter((r) => r.energyUnbalanced);
    expect(unbalanced.length).toBeGreaterThan(0);
    expect(unbalanced.every((r) => r.ok && r.retries > 0 && r.energyGain > 0)).toBe(true);
    expect(yanked.warnings().join()).toMatch(/in every retry, none of which converged/);
    yanked.dispose();
  });

  it('says when the line search ends steps unconverged for want of backtracks', () => {
    // The corner yanked 3 m: each iteration's full Newton step overshoots. Without backtracks
    // every step ends at its first rejected trial, unconverged but ok, and says so.
    const step = (maxBacktracks) => {
      const simulator = smfem.createSimulator(asset, { parameters: { ...PARAMETERS, maxBacktracks } });
      simulator.dragStart(0, [0, 3, 0], 1e4);
      const reports = simulator.step(STEPS);
      const warned = simulator.warnings().filter((w) => /the line search found no decrease/.test(w));
      simulator.dispose();
      return { reports, warned };
    };
    const held = step(0);
    expect(held.reports.every((r) => r.ok && r.lineSearchFailures > 0)).toBe(true);
    expect(held.warned.length).toBe(STEPS);
    expect(held.warned[0]).toBe(
      'step 1: the line search found no decrease within 0 halvings (maxBacktracks), and the step ' +
        'ended there unconverged (more backtracks let it go on)',
    );
    // The default backtracks: it moves, and nothing is said.
    const moving = step(30);
    expect(moving.reports.every((r) => r.lineSearchFailures === 0)).toBe(true);
    expect(moving.warned).toEqual([]);
  });

  it('gives worker threads back on dispose, never blocking on an exhausted pool', () => {
    const simulators = [];
    for (let i = 0; i < 6; ++i) simulators.push(smfem.createSimulator(asset, { threads: 2 }));
    const threads = simulators.map((s) => s.info.threads);
    if (build === 'threads') {
      expect(threads.slice(0, 4)).toEqual([2, 2, 2, 2]);
      expect(threads.slice(4)).toEqual([1, 1]);
      expect(simulators[4].warnings().join()).toMatch(/worker threads are free/);
    } else {
      expect(threads).toEqual([1, 1, 1, 1, 1, 1]);
    }
    for (const s of simulators) s.step(1);
    for (const s of simulators) s.dispose();
    const again = smfem.createSimulator(asset, { threads: 2 });
    expect(again.info.threads).toBe(build === 'threads' ? 2 : 1);
    again.dispose();
    expect(() => again.step(1)).toThrow(/disposed/);
  });
});
