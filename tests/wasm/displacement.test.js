// The comparison subspaces of Subspace MFEM (Trusty et al. 2023), Fig. 5 (linear modes, modal
// derivatives) baked into an asset (smfem-bake --comparison-basis) and stepped in wasm (loader.js:
// createDisplacementSimulator, npx smfem simulate --subspace): the same trajectory as the native
// build (build/bin/smfem-run --displacement-basis), the CLI's records are the JS API's, and bad
// input is refused with a message naming it.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSmfem } from '../../wasm/js/loader.js';
import { relativeDifference } from './relative_difference.js';
import { syntheticAsset } from '../../wasm/js/synthetic_asset.js';
import { bakedAsset, stepRecord } from '../../wasm/js/simulate.js';

const recipe = fileURLToPath(new URL('../../assets/scenes/report/cantilever.json', import.meta.url));
const runTool = fileURLToPath(new URL('../../build/bin/smfem-run', import.meta.url));
const cli = fileURLToPath(new URL('../../wasm/js/cli.js', import.meta.url));
const simulate = (args) => promisify(execFile)(process.execPath, [cli, 'simulate', ...args]);
const BASES = ['linear', 'modal_derivatives'];
const PARAMETERS = { iterations: 2, timestep: 0.02 };
const STEPS = 10;

const assets = {};
beforeAll(async () => {
  for (const basis of BASES) assets[basis] = await bakedAsset(recipe, ['--comparison-basis', basis]);
}, 120_000);

// The tools module runs under Node, threaded (scripts/setup.sh builds no single-threaded one).
describe('displacement bases', () => {
  let smfem;
  beforeAll(async () => {
    smfem = await loadSmfem({ build: 'threads', tools: true });
  });
  afterAll(() => smfem?.dispose());

  for (const basis of BASES) {
    it(`describes the ${basis} basis and its cubature`, async () => {
      const simulator = smfem.createDisplacementSimulator(await readFile(assets[basis]));
      const { info } = simulator;
      expect(info.basis).toBe(basis);
      // The recipe's 4 skinning modes: 48 coordinates; modal derivatives drop near-dependent ones.
      if (basis === 'linear') expect(info.coordinates).toBe(48);
      else expect(info.coordinates).toBeGreaterThan(30);
      expect(info.cubature).toBe(40);
      expect(info.tets).toBeGreaterThan(1000);
      expect(info.parameters.solver).toBe('mfem');
      // Only what applies (the info showed energyCheck and eigenFit, which a basis never runs).
      for (const key of ['eigenFit', 'eigenFitRelinearized', 'floatStiffness', 'energyCheck']) {
        expect(info.parameters).not.toHaveProperty(key);
      }
      expect(simulator.coordinatesF64().every((q) => q === 0)).toBe(true);
      simulator.dispose();
    });

    for (const solver of ['mfem', 'fem']) {
      it(`follows the native trajectory (${basis}, ${solver}, ${STEPS} steps) to 1e-12`, async () => {
        const parameters = { ...PARAMETERS, solver };
        const native = JSON.parse(
          execFileSync(runTool, [
            assets[basis],
            '--displacement-basis',
            '--steps',
            String(STEPS),
            '--parameters',
            JSON.stringify(parameters),
          ]).toString(),
        );
        const simulator = smfem.createDisplacementSimulator(await readFile(assets[basis]), { parameters });
        expect(native.modes).toBe(simulator.info.coordinates);
        const rest = simulator.diagnostics().centroid[1];
        let worst = 0;
        for (const reference of native.steps) {
          const [report] = simulator.step(1);
          expect(report.ok).toBe(true);
          expect(report.iterations).toBe(reference.iterations);
          worst = Math.max(worst, relativeDifference(simulator.coordinatesF64(), reference.u));
        }
        expect(worst).toBeLessThan(1e-12);
        // It sags under gravity: the centroid goes down, and it stores elastic energy.
        const last = simulator.diagnostics();
        expect(last.centroid[1] - rest).toBeLessThan(-1e-4);
        expect(last.energy.elastic).toBeGreaterThan(0);
        simulator.dispose();
      });
    }
  }

  it('changes parameters, resets, and refuses what a displacement basis cannot do', async () => {
    const bytes = await readFile(assets.linear);
    const simulator = smfem.createDisplacementSimulator(bytes, { parameters: PARAMETERS });
    simulator.setParameters({ gravity: [0, 0, 0] });
    const [still] = simulator.step(1);
    expect(still.energy.kinetic).toBe(0);
    simulator.setParameters({ gravity: [0, -9.8, 0] });
    simulator.step(3);
    expect(simulator.diagnostics().energy.kinetic).toBeGreaterThan(0);
    simulator.reset();
    expect(simulator.coordinatesF64().every((q) => q === 0)).toBe(true);
    expect(simulator.diagnostics().time).toBe(0);
    expect(() => simulator.dragMove([0, 0, 0])).toThrow('no drag spring');
    expect(() => simulator.setParameters({ solver: 'newton' })).toThrow('parameter solver');
    expect(() => simulator.setParameters({ materials: [] })).toThrow('parameter materials');
    simulator.warnings();
    simulator.setParameters({ eigenFit: false, energyCheck: true });
    expect(simulator.warnings()).toEqual([
      'parameter eigenFit does not apply to a displacement basis',
      'parameter energyCheck does not apply to a displacement basis',
    ]);
    simulator.dispose();
    expect(() => smfem.createDisplacementSimulator(bytes, { parameters: { materials: [] } })).toThrow(
      'parameter materials: a displacement basis keeps its baked materials',
    );
    expect(() =>
      smfem.createDisplacementSimulator(syntheticAsset(2, 8), { sourceName: 'box.smfem' }),
    ).toThrow("section 'displacement.basis': missing: bake with smfem-bake --comparison-basis");
  });
});

describe('smfem simulate --subspace', () => {
  let smfem, folder;
  beforeAll(async () => {
    smfem = await loadSmfem({ build: 'threads', tools: true });
    folder = await mkdtemp(join(tmpdir(), 'smfem-displacement-test-'));
  });
  afterAll(async () => {
    smfem?.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  it("prints the JS API's step reports to the bit and writes q as the trajectory", async () => {
    const simulator = smfem.createDisplacementSimulator(await readFile(assets.modal_derivatives), {
      sourceName: 'cantilever.json',
      parameters: PARAMETERS,
    });
    const expected = [],
      coordinates = [];
    for (let step = 1; step <= 4; ++step) {
      expected.push(stepRecord(step, simulator.step(1)[0]));
      coordinates.push(...simulator.coordinatesF64());
    }
    const k = simulator.info.coordinates;
    simulator.dispose();
    const trajectory = join(folder, 'q.bin');
    const { stdout } = await simulate([
      recipe,
      '--subspace',
      'modal_derivatives',
      '--steps',
      '4',
      '--iters',
      '2',
      '--dt',
      '0.02',
      '--json',
      '--trajectory',
      trajectory,
    ]);
    const records = stdout.trim().split('\n').map(JSON.parse);
    const withoutTime = (record) => ({ ...record, wallMs: 0 });
    expect(records.map(withoutTime)).toEqual(expected.map(withoutTime));
    const file = await readFile(trajectory);
    const header = new DataView(file.buffer, file.byteOffset, 16);
    expect(header.getUint32(8, true)).toBe(4);
    expect(header.getUint32(12, true)).toBe(k);
    expect(
      Array.from(new Float64Array(file.buffer.slice(file.byteOffset + 16, file.byteOffset + file.length))),
    ).toEqual(coordinates);
  });

  it('refuses a basis the asset does not carry, an unknown basis, --drag and scenes with contact', async () => {
    await expect(
      simulate([assets.linear, '--subspace', 'modal_derivatives', '--steps', '1']),
    ).rejects.toThrow('carries a linear basis, not modal_derivatives');
    const unknown = simulate([recipe, '--subspace', 'wavelets', '--steps', '1']);
    await expect(unknown).rejects.toThrow(
      '--comparison-basis: expected "linear" or "modal_derivatives", got "wavelets"',
    );
    await expect(unknown).rejects.not.toThrow('usage:'); // the bake's usage, which said nothing more
    // An asset of the skinning modes alone says so, not which section it lacks.
    const skinningOnly = join(folder, 'skinning.smfem');
    await writeFile(skinningOnly, syntheticAsset(2, 16));
    await expect(simulate([skinningOnly, '--subspace', 'linear', '--steps', '1'])).rejects.toThrow(
      'skinning.smfem carries no comparison subspace: bake it with smfem-bake --comparison-basis',
    );
    await expect(
      simulate([recipe, '--subspace', 'linear', '--drag', '0', '0', '0', '0', '1']),
    ).rejects.toThrow('--drag and --render need the skinning subspace');
    await expect(simulate([recipe, '--subspace', 'linear', '--build', 'single'])).rejects.toThrow(
      '--subspace linear runs on the threaded build only (--build threads)',
    );
    const scene = fileURLToPath(new URL('../../assets/scenes/contact', import.meta.url));
    const { readdir } = await import('node:fs/promises');
    const file = (await readdir(scene)).find((name) => name.endsWith('.json'));
    await expect(simulate([join(scene, file), '--subspace', 'linear', '--steps', '1'])).rejects.toThrow(
      '--subspace applies to a single asset or recipe',
    );
  });
});
