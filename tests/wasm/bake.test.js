// The bake in WebAssembly (precompute/js/bake.js) against the native tool (build/bin/smfem-bake)
// on the same files and options: surface meshes in two formats (tetrahedralized by the bake) and
// tet meshes in two formats; one of them is a recipe with two materials. The same asset up to
// rounding: the same mesh and collision surface, eigenvalues within 1e-8 (relative to the
// largest); the cubature's tets and the contact samples mostly the same (see below).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBake } from '../../precompute/js/bake.js';
import { loadSmfem } from '../../wasm/js/loader.js';
import { nativeTool } from '../../wasm/js/native_tools.js';
import { boxObj, gridTets, medit, objToStl, tetgen } from './test_meshes.js';

const exec = promisify(execFile);
const repository = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

describe('the bake in WebAssembly', () => {
  let baker, smfem, folder;
  const cases = [];

  beforeAll(async () => {
    [baker, smfem] = await Promise.all([loadBake(), loadSmfem()]);
    folder = await mkdtemp(join(tmpdir(), 'smfem-wasm-bake-'));
    const encode = (text) => new TextEncoder().encode(text);
    const bunnyObj = await readFile(repository('assets/scenes/contact/bodies/meshes/bunny.obj'));
    const recipe = await readFile(repository('assets/scenes/contact/bodies/bunny.json'));
    const beam = gridTets(12, 3, 3, 0.025);
    const { node, ele } = tetgen(beam);
    const material = ['--youngs', '2e5', '--poisson', '0.4', '--density', '1000'];
    cases.push(
      {
        name: 'a recipe of two materials on an OBJ surface',
        files: [
          { name: 'bunny.json', bytes: recipe },
          { name: 'meshes/bunny.obj', bytes: bunnyObj },
        ],
        args: ['bunny.json'],
      },
      {
        name: 'an ASCII STL surface',
        files: [{ name: 'bunny.stl', bytes: encode(objToStl(bunnyObj.toString())) }],
        args: ['bunny.stl', '--target-tets', '3000', ...material],
      },
      {
        name: 'a MEDIT tet mesh',
        files: [{ name: 'beam.mesh', bytes: encode(medit(beam)) }],
        args: ['beam.mesh', '--modes', '10', ...material],
      },
      {
        name: 'a TetGen pair',
        files: [
          { name: 'beam.node', bytes: encode(node) },
          { name: 'beam.ele', bytes: encode(ele) },
        ],
        args: ['beam.ele', '--modes', '10', ...material],
      },
    );
    for (const [k, c] of cases.entries()) {
      const caseFolder = join(folder, String(k));
      await exec('mkdir', ['-p', join(caseFolder, 'meshes')]);
      for (const file of c.files) await writeFile(join(caseFolder, file.name), file.bytes);
      const output = join(caseFolder, 'native.smfem');
      const { stdout } = await exec(
        nativeTool('smfem-bake'),
        [...c.args, '-o', output, '--json', '--quiet'],
        { cwd: caseFolder },
      );
      c.native = { asset: new Uint8Array(await readFile(output)), summary: JSON.parse(stdout) };
      c.wasm = baker.bake(c.files, c.args);
    }
  }, 600_000);

  afterAll(async () => {
    baker?.dispose();
    smfem?.dispose();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** Section `name` of an asset as a typed array. */
  function section(asset, name) {
    const found = smfem.inspectAsset(asset).sections.find((s) => s.name === name);
    const type = { f64: Float64Array, f32: Float32Array, u32: Uint32Array }[found.dtype];
    return new type(asset.slice(found.offset, found.offset + found.length).buffer);
  }

  it.each([0, 1, 2, 3])('bakes case %i as the native tool does', (k) => {
    const { name, native, wasm } = cases[k];
    for (const key of ['vertices', 'tets', 'components', 'cubature', 'render_vertices', 'constant_modes'])
      expect(wasm.summary[key], `${name}: ${key}`).toEqual(native.summary[key]);
    const largest = Math.max(...native.summary.eigenvalues);
    wasm.summary.eigenvalues.forEach((value, i) =>
      expect(
        Math.abs(value - native.summary.eigenvalues[i]) / largest,
        `${name}: eigenvalue ${i}`,
      ).toBeLessThan(1e-8),
    );
    for (const exact of ['render.positions', 'contact.triangles'])
      expect(section(wasm.asset, exact), `${name}: ${exact}`).toEqual(section(native.asset, exact));
    // The cubature's algorithm chooses the same tets in both builds from the same modes
    // (tests/native/cubature/cubature_across_builds_test.cpp runs natively and in this build),
    // but the modes are not bit for bit the same: the two builds round the eigensolve's
    // reductions differently (AVX-512 and FMA natively, 128-bit SIMD and musl's libm in wasm).
    // On the symmetric beam, whose weights agree to the last bits of their f32, tets whose
    // features tie by symmetry are told apart by that rounding (about 90 % shared); on the
    // bunny, modes of close eigenvalues mix differently (render weights up to 1e-2 apart).
    const shared = (key) => {
      const theirs = new Set(section(native.asset, key));
      const ours = [...new Set(section(wasm.asset, key))];
      return ours.filter((value) => theirs.has(value)).length / theirs.size;
    };
    const [cubature, samples] = [shared('cubature.tets'), shared('contact.samples')];
    const [ourWeights, theirWeights] = [wasm.asset, native.asset].map((a) => section(a, 'render.weights'));
    const weightGap = ourWeights.reduce((gap, w, k) => Math.max(gap, Math.abs(w - theirWeights[k])), 0);
    console.log(
      `${name}: ${wasm.summary.tets} tets; cubature tets ${(100 * cubature).toFixed(1)} % and contact ` +
        `samples ${(100 * samples).toFixed(1)} % the native ones (render weights up to ` +
        `${weightGap.toExponential(1)} apart); wasm ${wasm.summary.total_s.toFixed(2)} s, ` +
        `${(wasm.memoryBytes / 2 ** 20).toFixed(0)} MB heap; native ${native.summary.total_s.toFixed(2)} s`,
    );
    expect(samples, `${name}: contact samples shared`).toBe(1);
    // What matters of the cubature: both assets deform alike. The body's far end pulled by a
    // drag spring for 0.25 s without gravity, then let go to ring for 0.5 s (converged steps):
    // the elastic energy, which the cubature approximates, follows the same course.
    const [ours, theirs] = [wasm.asset, native.asset].map(ringing);
    const peak = Math.max(...theirs);
    const gap = Math.max(...theirs.map((energy, step) => Math.abs(energy - ours[step])));
    console.log(
      `${name}: elastic energy up to ${peak.toExponential(2)} J, the two bakes ${((100 * gap) / peak).toFixed(2)} % of it apart`,
    );
    expect(peak, name).toBeGreaterThan(0);
    expect(gap / peak, name).toBeLessThan(0.05);
  });

  /** The elastic energy at each step of a pull on the body's far end and its release. */
  function ringing(asset) {
    const rest = section(asset, 'render.positions');
    let end = 0;
    for (let v = 3; v < rest.length; v += 3) if (rest[v] > rest[3 * end]) end = v / 3;
    const simulator = smfem.createSimulator(asset, {
      parameters: { gravity: [0, 0, 0], untilConverged: true, iterations: 50 },
    });
    simulator.dragStart(end, [rest[3 * end] + 0.01, rest[3 * end + 1] + 0.03, rest[3 * end + 2]], 2000);
    const pulled = simulator.step(15);
    simulator.dragEnd();
    const released = simulator.step(30);
    simulator.dispose();
    return [...pulled, ...released].map((report) => report.energy.elastic);
  }

  // --paint (what the page's paintRegion bakes in): the far half of a bar painted 100 times
  // softer than the rest, pulled by that end along the bar without gravity, against the same
  // bar unpainted.
  it('bakes painted regions in: a bar pulled by its soft end stretches there', () => {
    const bar = new TextEncoder().encode(medit(gridTets(16, 2, 2, 0.025))); // 0.4 x 0.05 x 0.05 m
    const files = () => [{ name: 'bar.mesh', bytes: bar.slice() }];
    const plain = baker.bake(files(), ['bar.mesh', '--modes', '12']);
    const soft = baker.bake(files(), ['bar.mesh', '--modes', '12', '--paint', '0.4,0.025,0.025,0.2,1e4']);
    expect(soft.summary.cubature_by_region.map((region) => region.name)).toEqual(['region 0', 'painted 1']);
    const halves = (asset) => {
      const rest = section(asset, 'render.positions');
      const at = (x) => {
        for (let v = 0; v < rest.length / 3; ++v) {
          if (Math.abs(rest[3 * v] - x) < 1e-6 && rest[3 * v + 1] === 0 && rest[3 * v + 2] === 0) return v;
        }
        throw new Error(`no render vertex at x = ${x}`);
      };
      const [left, middle, right] = [0, 0.2, 0.4].map(at);
      const simulator = smfem.createSimulator(asset, {
        parameters: { gravity: [0, 0, 0], untilConverged: true, iterations: 50 },
      });
      // 0.1 s: the spring (200 N/m on 1 kg) still pulls, a quarter of its period is 0.11 s.
      simulator.dragStart(right, [0.45, 0, 0], 200);
      simulator.step(6);
      const x = deformed(asset, simulator.coordinatesF64(), 0);
      simulator.dispose();
      return [x[middle] - x[left] - 0.2, x[right] - x[middle] - 0.2];
    };
    const [plainStiff, plainPulled] = halves(plain.asset);
    const [stiff, pulled] = halves(soft.asset);
    console.log(
      `bar pulled by one end: uniform halves stretch ${(1000 * plainStiff).toFixed(2)} and ` +
        `${(1000 * plainPulled).toFixed(2)} mm; painted soft there, ${(1000 * stiff).toFixed(2)} and ` +
        `${(1000 * pulled).toFixed(2)} mm`,
    );
    // 100 times softer: the painted half stretches by centimetres where the uniform bar's same
    // half stretches by a fraction of a millimetre, and the stiff half stays as it was.
    expect(pulled).toBeGreaterThan(20 * Math.max(Math.abs(plainPulled), 1e-4));
    expect(Math.abs(stiff)).toBeLessThan(0.05 * pulled);
  });

  /** Coordinate d of each render vertex at reduced coordinates U (column-major, 4m x 3). */
  function deformed(asset, U, d) {
    const rest = section(asset, 'render.positions');
    const weights = section(asset, 'render.weights');
    const vertices = rest.length / 3;
    const modes = weights.length / vertices;
    return Array.from({ length: vertices }, (_, v) => {
      const X = [rest[3 * v], rest[3 * v + 1], rest[3 * v + 2], 1];
      let x = X[d];
      for (let i = 0; i < modes; ++i)
        for (let k = 0; k < 4; ++k) x += weights[v * modes + i] * X[k] * U[4 * modes * d + 4 * i + k];
      return x;
    });
  }

  it('refuses what the native tool refuses, with its message', () => {
    const files = [{ name: 'x.obj', bytes: new TextEncoder().encode('v 0 0 0\nf 1 2 3\n') }];
    expect(() => baker.bake(files, ['x.obj'])).toThrow(
      'smfem-bake: x.obj:2: f: vertex index 2 out of range 1..1',
    );
    expect(() => baker.bake(files, ['x.obj', '--modes', '0'])).toThrow(
      '--modes: expected an integer in [1, 64], got "0"',
    );
    expect(() => baker.bake([{ name: '../x.obj', bytes: new Uint8Array(3) }], ['x.obj'])).toThrow(
      'relative path inside',
    );
    // A binary STL whose count says far more triangles than it holds: the size it would need,
    // counted in 64 bits (wasm's size_t is 32: it printed the sum wrapped).
    const stl = new Uint8Array(4096);
    new DataView(stl.buffer).setUint32(80, 3829661104, true);
    expect(() => baker.bake([{ name: 'junk.stl', bytes: stl }], ['junk.stl'])).toThrow(
      '3829661104 triangles need 84 + 50 x 3829661104 = 191483055284 bytes, the file has 4096',
    );
    // The page's bounds: a surface of more triangles than it takes, before it is tetrahedralized.
    const box = [{ name: 'box.obj', bytes: new TextEncoder().encode(boxObj([0.3, 0.1, 0.1])) }];
    expect(() => baker.bake(box, ['box.obj', '--max-triangles', '11'])).toThrow(
      'box.obj: 12 triangles, more than the 11 this bake takes (--max-triangles)',
    );
    expect(() => baker.bake(box, ['box.obj', '--pin', '5,5,5,0.1'])).toThrow(
      '--pin 1: its sphere holds no vertex of the mesh',
    );
  });

  // The single-threaded bake (pages that are not cross-origin isolated) runs the same code on
  // one thread: the same asset as the threaded one, to the bit.
  it('bakes on one thread as on several', async () => {
    const single = await loadBake({ build: 'single' });
    try {
      expect(single.build).toBe('single');
      for (const k of [1, 2]) {
        const { files, args, wasm } = cases[k];
        const alone = single.bake(
          files.map(({ name, bytes }) => ({ name, bytes })),
          args,
        );
        expect(alone.summary.eigenvalues, cases[k].name).toEqual(wasm.summary.eigenvalues);
        expect(alone.asset, cases[k].name).toEqual(wasm.asset);
      }
    } finally {
      single.dispose();
    }
  });

  // A mesh in millimetres read as metres: the page's bake warns as the native one does (its line,
  // and the summary's list), and --scale 0.001 (the page's Units) bakes it in metres; a mesh in
  // metres so scaled is warned of too.
  it('warns of a mesh likely not in metres, and --scale bakes it in metres', () => {
    const bar = [{ name: 'bar_mm.mesh', bytes: new TextEncoder().encode(medit(gridTets(16, 2, 2, 25))) }];
    const lines = [];
    const large = baker.bake(bar, ['bar_mm.mesh', '--modes', '4'], (line) => lines.push(line));
    expect(large.summary.warnings).toEqual([
      "bar_mm.mesh: the body is 400 m across (a file's coordinates are read as metres): if they are " +
        'millimetres, bake it with --scale 0.001, centimetres with --scale 0.01',
    ]);
    expect(lines).toContain(`smfem-bake: warning: ${large.summary.warnings[0]}`);
    const scaled = baker.bake(bar, ['bar_mm.mesh', '--modes', '4', '--scale', '0.001']);
    expect(scaled.summary.warnings).toEqual([]);
    const rest = section(scaled.asset, 'render.positions');
    expect(Math.max(...rest)).toBeCloseTo(0.4, 6); // stored in float
    // The same units picked for a bar already in metres: 0.4 mm long, and said so.
    const metres = [{ name: 'bar.mesh', bytes: new TextEncoder().encode(medit(gridTets(16, 2, 2, 0.025))) }];
    const shrunk = baker.bake(metres, ['bar.mesh', '--modes', '4', '--scale', '0.001']);
    expect(shrunk.summary.warnings).toEqual([
      "bar.mesh: the body is 0.4 mm across (the file's coordinates times --scale 0.001): if they are " +
        'metres already, bake it without --scale',
    ]);
  });

  // --pin (what the page's brush pins): a bar pinned at one end by a sphere stays there under
  // gravity, its other end sags.
  it('pins the vertices within a sphere', () => {
    const bar = [{ name: 'bar.mesh', bytes: new TextEncoder().encode(medit(gridTets(16, 2, 2, 0.025))) }];
    const { asset, summary } = baker.bake(bar, ['bar.mesh', '--modes', '8', '--pin', '0,0.025,0.025,0.04']);
    // The end face's 3 x 3 vertices; of the next layer, 0.025 m in, all but the corners.
    expect(summary.pinned).toBe(9 + 5);
    const simulator = smfem.createSimulator(asset, { parameters: { iterations: 20 } });
    simulator.step(30);
    const U = simulator.coordinatesF64();
    simulator.dispose();
    const rest = section(asset, 'render.positions');
    const y = (x) => {
      const ys = deformed(asset, U, 1).filter((_, v) => Math.abs(rest[3 * v] - x) < 1e-6);
      return Math.min(...ys);
    };
    expect(Math.abs(y(0))).toBeLessThan(1e-4);
    expect(y(0.4)).toBeLessThan(-0.005);
  });
});
