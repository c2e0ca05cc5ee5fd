// `npx smfem simulate` (wasm/js/simulate.js) against the JS API it wraps: the same asset and
// parameters give the step report's values to the bit, as JSON lines, CSV and trajectory file;
// bad input is refused with a message naming it.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSmfem } from '../../wasm/js/loader.js';
import { syntheticAsset } from '../../wasm/js/synthetic_asset.js';
import { boxObj, gridTets, tetgen } from './test_meshes.js';
import { pruneBakeCache, stepRecord } from '../../wasm/js/simulate.js';

const cli = fileURLToPath(new URL('../../wasm/js/cli.js', import.meta.url));
const run = (args) => promisify(execFile)(process.execPath, [cli, 'simulate', ...args]);
const STEPS = 6;
const PARAMETERS = { solver: 'mfem', iterations: 2, timestep: 0.01 };

describe('smfem simulate', () => {
  let smfem, folder, asset, expected, coordinates;

  beforeAll(async () => {
    smfem = await loadSmfem({ build: 'threads' });
    folder = await mkdtemp(join(tmpdir(), 'smfem-simulate-test-'));
    asset = join(folder, 'box.smfem');
    const bytes = syntheticAsset(4, 48);
    await writeFile(asset, bytes);
    const simulator = smfem.createSimulator(bytes, { parameters: PARAMETERS });
    expected = [];
    coordinates = [];
    for (let step = 1; step <= STEPS; ++step) {
      expected.push(stepRecord(step, simulator.step(1)[0]));
      coordinates.push(...simulator.coordinatesF64());
    }
    simulator.dispose();
  });

  afterAll(async () => {
    smfem?.dispose();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const args = ['--solver', 'mfem', '--iters', '2', '--dt', '0.01', '--steps', String(STEPS)];
  const withoutWallClock = ({ wallMs, ...record }) => record;
  // A small recipe of a rubber body whose geometry is the mesh file `mesh`.
  const meshRecipe = (name, mesh) =>
    JSON.stringify({
      name,
      description: `a rubber body meshed from ${mesh}`,
      geometry: { mesh },
      resolution: { target_tets: 300 },
      materials: [{ name: 'rubber', youngs: 1e5, poisson: 0.45, density: 1000 }],
      subspace: { modes: 4, cubature: 20 },
      solver: { method: 'mfem', iterations: 2, timestep: 0.01, gravity: [0, -9.8, 0], material_model: 'fcr' },
    });

  it('prints the JS API step report to the bit, one JSON object per line', async () => {
    const { stdout } = await run([asset, ...args, '--json']);
    const records = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.map(withoutWallClock)).toEqual(expected.map(withoutWallClock));
    expect(records[0].wallMs).toBeGreaterThan(0);
  });

  it("runs --converged to convergence, not to the asset's own iteration count", async () => {
    const pull = ['--drag', '0', '1', '1', '1', '1e5']; // a hard pull: steps need tens of iterations
    const { stdout } = await run([asset, '--dt', '0.01', '--steps', '3', ...pull, '--converged', '--json']);
    const records = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const bytes = await readFile(asset);
    const converged = { timestep: 0.01, untilConverged: true, iterations: 200 };
    const simulator = smfem.createSimulator(bytes, { parameters: converged });
    simulator.dragStart(0, [1, 1, 1], 1e5);
    const reports = simulator.step(3).map((report, k) => stepRecord(k + 1, report));
    simulator.dispose();
    expect(records.map(withoutWallClock)).toEqual(reports.map(withoutWallClock));
    expect(Math.max(...records.map((r) => r.iterations))).toBeGreaterThan(2);
  });

  it('prints the same as CSV columns, vectors split by axis', async () => {
    const { stdout } = await run([asset, ...args, '--csv']);
    const [header, ...rows] = stdout.trim().split('\n');
    const columns = header.split(',');
    expect(columns).toContain('angularMomentum_z');
    expect(rows).toHaveLength(STEPS);
    const last = Object.fromEntries(
      rows
        .at(-1)
        .split(',')
        .map((cell, i) => [columns[i], cell]),
    );
    expect(Number(last.kinetic)).toBe(expected.at(-1).kinetic);
    expect(Number(last.angularMomentum_z)).toBe(expected.at(-1).angularMomentum[2]);
  });

  it('writes the reduced trajectory', async () => {
    const file = join(folder, 'run.bin');
    await run([asset, ...args, '--trajectory', file]);
    const bytes = await readFile(file);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(bytes.subarray(0, 4).toString()).toBe('SMFT');
    expect([view.getUint32(4, true), view.getUint32(8, true), view.getUint32(12, true)]).toEqual([
      1,
      STEPS,
      48,
    ]);
    const trajectory = new Float64Array(
      bytes.buffer.slice(bytes.byteOffset + 16, bytes.byteOffset + bytes.byteLength),
    );
    expect(Array.from(trajectory)).toEqual(coordinates);
  });

  it('writes the trajectory as it runs, and leaves nothing behind when cut short', async () => {
    const where = await mkdtemp(join(folder, 'cut-'));
    const file = join(where, 'long.bin');
    const child = spawn(
      process.execPath,
      [cli, 'simulate', asset, '--steps', '1000000', '--trajectory', file],
      {
        stdio: 'ignore',
      },
    );
    const exited = new Promise((done) => child.on('exit', (code, signal) => done({ code, signal })));
    // Its work file grows step by step (a thousand steps in, it holds more than 100 of them).
    await expect
      .poll(
        async () => {
          const work = (await readdir(where)).find((name) => name.endsWith('.tmp'));
          return work ? (await stat(join(where, work))).size : 0;
        },
        { timeout: 20000 },
      )
      .toBeGreaterThan(16 + 100 * 48 * 8);
    child.kill('SIGINT');
    expect(await exited).toEqual({ code: 130, signal: null });
    expect(await readdir(where)).toEqual([]);
    // The reader of stdout gone: no trajectory of part of the run either.
    const command = `"${process.execPath}" "${cli}" simulate "${asset}" --steps 1000000 --json --trajectory "${file}" | head -1`;
    await promisify(execFile)('bash', ['-o', 'pipefail', '-c', command]);
    expect(await readdir(where)).toEqual([]);
  }, 60000);

  it('never replaces a file of yours unless told to (--force)', async () => {
    const file = join(folder, 'yours.bin');
    await writeFile(file, 'yours');
    await expect(run([asset, ...args, '--trajectory', file])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`--trajectory ${file}: the file exists (pass --force`),
    });
    expect(await readFile(file, 'utf8')).toBe('yours');
    await run([asset, ...args, '--trajectory', file, '--force']);
    expect((await readFile(file)).subarray(0, 4).toString()).toBe('SMFT');
  });

  it("checks the trajectory's folder before it simulates", async () => {
    const nowhere = join(folder, 'no-such-folder', 't.bin');
    await expect(run([asset, ...args, '--json', '--trajectory', nowhere])).rejects.toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining(`--trajectory ${nowhere}: there is no folder`),
    });
  });

  it('stops when the reader of its output leaves (| head -1)', async () => {
    // A million steps take minutes: the pipe's end has to stop the run.
    const command = `"${process.execPath}" "${cli}" simulate "${asset}" --steps 1000000 --json | head -1`;
    const { stdout, stderr } = await promisify(execFile)('bash', ['-o', 'pipefail', '-c', command]);
    expect(JSON.parse(stdout).step).toBe(1);
    expect(stderr).toBe('');
  }, 30000);

  it('bakes a recipe again when a file it names changes', async () => {
    // Recipe and mesh in a folder of their own; the bake cache is keyed on both.
    const own = await mkdtemp(join(tmpdir(), 'smfem-simulate-recipe-'));
    try {
      const recipe = join(own, 'box.json');
      await writeFile(recipe, meshRecipe('box', 'box.obj'));
      const centroidY = async (size) => {
        await writeFile(join(own, 'box.obj'), boxObj([size, size, size]));
        const { stdout } = await run([recipe, '--steps', '1', '--json']);
        return JSON.parse(stdout).centroid[1];
      };
      const small = await centroidY(0.2);
      const large = await centroidY(1.0);
      expect(large / small).toBeCloseTo(5, 1);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  }, 60000);

  it("bakes again when a TetGen mesh's .ele changes, and reads a recipe that starts with a byte-order mark", async () => {
    const own = await mkdtemp(join(tmpdir(), 'smfem-simulate-tetgen-'));
    try {
      // The recipe names box.node; the bake reads box.ele beside it. A tet mesh is used as it is
      // (no resolution).
      const recipe = join(own, 'box.json');
      const { resolution, ...tetRecipe } = JSON.parse(meshRecipe('box', 'box.node'));
      await writeFile(recipe, `\uFEFF${JSON.stringify(tetRecipe)}`);
      const grid = gridTets(8, 3, 3, 0.05);
      const centroidX = async (tets) => {
        const { node, ele } = tetgen({ vertices: grid.vertices, tets });
        await writeFile(join(own, 'box.node'), node);
        await writeFile(join(own, 'box.ele'), ele);
        const { stdout } = await run([recipe, '--steps', '1', '--json']);
        return JSON.parse(stdout).centroid[0];
      };
      const whole = await centroidX(grid.tets);
      const left = await centroidX(grid.tets.filter((t) => t.every((v) => grid.vertices[v][0] <= 0.2)));
      expect(whole).toBeCloseTo(0.2, 2);
      expect(left).toBeCloseTo(0.1, 2);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  }, 60000);

  it("prints a recipe's bake warnings at every run, from the cache too", async () => {
    const own = await mkdtemp(join(tmpdir(), 'smfem-simulate-warnings-'));
    try {
      const recipe = join(own, 'hall.json');
      // A 20 m box: a mesh in centimetres read as metres, say.
      await writeFile(join(own, 'hall.obj'), boxObj([20, 20, 20]));
      await writeFile(recipe, meshRecipe('hall', 'hall.obj'));
      for (const run_ of ['baked', 'cached']) {
        const { stdout, stderr } = await run([recipe, '--steps', '1', '--json']);
        expect(JSON.parse(stdout).step, run_).toBe(1);
        expect(stderr, run_).toMatch(/smfem-bake: warning: .*hall\.json: the body is 20 m across/);
        expect(stderr, run_).toMatch(/"transform"/);
      }
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  }, 60000);

  it('keeps its bake cache within its size, dropping the bakes used longest ago', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'smfem-cache-test-'));
    try {
      // Five bakes of 100 bytes used at minutes 1..5, and a file that is not a bake.
      for (let minute = 1; minute <= 5; minute++) {
        const path = join(cache, `${minute}.smfem`);
        await writeFile(path, Buffer.alloc(100));
        await utimes(path, minute * 60, minute * 60);
      }
      await writeFile(join(cache, 'notes.txt'), Buffer.alloc(1000));
      // Two bakes' warnings: they go with their bake.
      await writeFile(join(cache, '2.warnings'), 'smfem-bake: warning: ...\n');
      await writeFile(join(cache, '4.warnings'), 'smfem-bake: warning: ...\n');
      await pruneBakeCache(cache, join(cache, '1.smfem'), 300);
      const left = (await readdir(cache)).sort();
      expect(left).toEqual(['1.smfem', '4.smfem', '4.warnings', '5.smfem', 'notes.txt']);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });

  it('prints its usage on --help and refuses option values that are not decimal numbers', async () => {
    const smfem = (args) => promisify(execFile)(process.execPath, [cli, ...args]);
    for (const args of [['--help'], ['-h'], ['help'], ['simulate', '--help'], ['bench-contact', '-h']]) {
      const { stdout } = await smfem(args);
      expect(stdout, args.join(' ')).toContain('smfem simulate <asset.smfem');
    }
    const refusals = [
      [['bench-contact', '--steps', '0x10'], '--steps: not a valid number: 0x10'],
      [['bench-thin', '--steps', '0'], '--steps must be at least 1, not 0'],
      [['bench-contact', '--warmup'], '--warmup: not a valid number: nothing given'],
      [['simulate', asset, '--steps', '1e3x'], '--steps: not a valid number: 1e3x'],
      // A number, but not one the option takes: said as such, not as "not a valid number".
      [['simulate', asset, '--steps', '0'], '--steps: expected a whole number from 1 to 10000000, not 0'],
      [['simulate', asset, '--dt', '0'], '--dt: expected a number above 0 (seconds), not 0'],
      [['simulate', asset, '--json', '--csv'], 'give --json or --csv, not both'],
    ];
    for (const [args, message] of refusals) {
      await expect(smfem(args), args.join(' ')).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining(message),
      });
    }
  });

  it('refuses bad input with a message naming it', async () => {
    await expect(run([join(folder, 'missing.smfem')])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`${join(folder, 'missing.smfem')}: no such file`),
    });
    // A folder (Node's own message named no path).
    await expect(run([folder])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`${folder}: a folder, not a file`),
    });
    await expect(run([asset, '--solver', 'xpbd'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--solver must be mfem or fem'),
    });
    await expect(run([asset, '--build', 'gpu'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--build must be threads or single'),
    });
    await expect(run([asset, '--eigenfit', 'maybe'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--eigenfit must be on, off or relinearized'),
    });
    const corrupt = join(folder, 'corrupt.smfem');
    await writeFile(corrupt, Buffer.from('not an asset at all'));
    await expect(run([corrupt])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('corrupt.smfem'),
    });
    // A file of another kind is not reported as a broken asset only.
    const notes = join(folder, 'notes.txt');
    await writeFile(notes, 'hello\n');
    await expect(run([notes])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        `${notes}: neither a baked asset (.smfem) nor a recipe or scene file (.json)`,
      ),
    });
    // A scene whose "bodies" is misspelt is not baked as a recipe (the bake listed a recipe's keys).
    const misspelt = join(folder, 'misspelt.json');
    await writeFile(misspelt, JSON.stringify({ timestep: 0.016, bodys: [{ asset: 'box.smfem' }] }));
    await expect(run([misspelt])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        `${misspelt}: neither a scene file (it has no "bodies") nor a body's recipe`,
      ),
    });
    // A shell is not a scene's body; a key given twice is refused, not the last one kept.
    const shell = join(folder, 'cloth.json');
    await writeFile(shell, JSON.stringify({ shell: { grid: [3, 3], size: [1, 1] } }));
    const withShell = join(folder, 'with-shell.json');
    await writeFile(withShell, JSON.stringify({ bodies: [{ recipe: 'cloth.json' }] }));
    await expect(run([withShell])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`bodies[0].recipe "cloth.json" is a shell's or a rod's recipe`),
    });
    // Broken JSON is located by line and column (Node's own message named a character position).
    const broken = join(folder, 'broken.json');
    await writeFile(broken, '{\n  "timestep": 0.016,\n  "bodies": [ }\n');
    await expect(run([broken])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('broken.json: invalid JSON: parse error at line 3, column 15'),
    });
    const twice = join(folder, 'twice.json');
    await writeFile(twice, '{"bodies": [{"asset": "box.smfem"}], "friction": 0.4, "friction": 0.9}');
    await expect(run([twice])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('twice.json: the key "friction" appears twice in one object'),
    });
  });
});
