// Contact at the page's settings on bodies nobody here made: the third-party bunny and octopus
// tet meshes (../shared/data, not part of the product), scaled to 25-30 cm, baked with soft
// rubber around a stiff core and dropped four high into a box too narrow for two side by side.
// At 2 iterations every body falls, lands on something and the pile comes to rest as high as a
// 30-iteration run puts it; every step stays apart and settled contacts keep a distance of the
// order of dHat. Piles are chaotic (a micrometre's nudge moves bodies by centimetres), so body by
// body the two runs are not comparable; the pile's height at rest is. How the stack gets there
// differs (the known loss below). Native release binaries (build/bin: smfem-bake, smfem-scene),
// so that a 30-iteration reference fits the test's time; contact-motion.test.js checks the
// shipped scenes in wasm. Skipped, never passed, where the meshes are absent.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxObstacles } from '../../wasm/js/contact_bench.js';

const exec = promisify(execFile);
const bin = (name) => fileURLToPath(new URL(`../../build/bin/${name}`, import.meta.url));
const shared = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
const meshes = { bunny: 'coarse_bunny.mesh', octopus: 'octopuslowdef.mesh' };
const present = Object.values(meshes).every((file) => existsSync(join(shared, file)));

/** A MEDIT tet mesh centred at the origin and scaled to `width` metres across, as MEDIT text. */
function scaledMedit(text, width) {
  const tokens = text.split(/\s+/).filter(Boolean);
  const section = (name, perEntry) => {
    const at = tokens.indexOf(name);
    const count = Number(tokens[at + 1]);
    return Array.from({ length: count }, (_, i) =>
      tokens.slice(at + 2 + i * perEntry, at + 2 + (i + 1) * perEntry).map(Number),
    );
  };
  const vertices = section('Vertices', 4).map((v) => v.slice(0, 3));
  const tets = section('Tetrahedra', 5);
  const low = [0, 1, 2].map((a) => Math.min(...vertices.map((v) => v[a])));
  const high = [0, 1, 2].map((a) => Math.max(...vertices.map((v) => v[a])));
  const scale = width / Math.max(...high.map((h, a) => h - low[a]));
  const centred = vertices.map((v) => v.map((x, a) => scale * (x - 0.5 * (low[a] + high[a]))));
  return [
    'MeshVersionFormatted 1',
    'Dimension 3',
    'Vertices',
    centred.length,
    ...centred.map((v) => `${v.join(' ')} 0`),
    'Tetrahedra',
    tets.length,
    ...tets.map((t) => `${t.slice(0, 4).join(' ')} 0`),
    'End',
    '',
  ].join('\n');
}

const recipe = (name, width) => ({
  name,
  description: 'A third-party tet mesh, soft rubber around a stiff core.',
  geometry: { mesh: `${name}.mesh` },
  materials: [
    {
      name: 'core',
      youngs: 1e8,
      poisson: 0.3,
      density: 1200,
      where: { sphere: { center: [0, 0, 0], radius: 0.2 * width } },
    },
    { name: 'rubber', youngs: 1e5, poisson: 0.45, density: 1000 },
  ],
  subspace: { modes: 8, cubature: 48 },
  solver: { method: 'mfem', iterations: 2, timestep: 1 / 60, gravity: [0, -9.8, 0], material_model: 'fcr' },
});

const pile = {
  timestep: 1 / 60,
  gravity: [0, -9.8, 0],
  friction: 0.5,
  obstacles: boxObstacles(0.2),
  bodies: [
    { asset: 'bunny.smfem', translation: [-0.04, 0.2, -0.03] },
    { asset: 'octopus.smfem', translation: [0.03, 0.52, 0.02] },
    { asset: 'bunny.smfem', translation: [0.02, 0.84, -0.04] },
    { asset: 'octopus.smfem', translation: [-0.03, 1.16, 0.04] },
  ],
};
const steps = 300; // 5 s: at 2 iterations the pile lands within 2 s and sleeps by 4.5 s
const referenceSteps = 150; // at 30 iterations it is still from step 90 on

const height = (record) =>
  record.bodies.reduce((sum, body) => sum + body.centroid[1], 0) / record.bodies.length;
const kinetic = (record) => record.bodies.reduce((sum, body) => sum + body.kinetic, 0);

describe.skipIf(!present)('contact on held-out meshes', () => {
  let folder, fast, reference;

  async function run(iterations, count) {
    const assets = pile.bodies.map(({ asset }) => join(folder, asset));
    const args = [
      join(folder, 'pile.json'),
      ...assets,
      '--steps',
      String(count),
      '--iters',
      String(iterations),
    ];
    const { stdout } = await exec(bin('smfem-scene'), [...args, '--threads', '2', '--json'], {
      maxBuffer: 1 << 28,
    });
    return stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
  }

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'smfem-held-out-'));
    for (const [name, width] of [
      ['bunny', 0.25],
      ['octopus', 0.3],
    ]) {
      const medit = scaledMedit(await readFile(join(shared, meshes[name]), 'utf8'), width);
      await writeFile(join(folder, `${name}.mesh`), medit);
      await writeFile(join(folder, `${name}.json`), JSON.stringify(recipe(name, width)));
      const out = join(folder, `${name}.smfem`);
      await exec(bin('smfem-bake'), [join(folder, `${name}.json`), '-o', out, '--quiet']);
    }
    await writeFile(join(folder, 'pile.json'), JSON.stringify(pile));
    fast = await run(2, steps);
    reference = await run(30, referenceSteps);
    const [last, converged] = [fast.at(-1), reference.at(-1)];
    const closest = Math.min(...fast.slice(-60).map((record) => record.minDistance ?? Infinity));
    console.log(
      `held-out pile at rest: ${height(last).toFixed(4)} m high at 2 iterations, ` +
        `${height(converged).toFixed(4)} m at 30; bodies at ${last.bodies.map((b) => b.centroid[1].toFixed(3))} m ` +
        `(30: ${converged.bodies.map((b) => b.centroid[1].toFixed(3))}); at step 30 the top body at ` +
        `${fast[29].bodies[3].centroid[1].toFixed(3)} m (30: ${reference[29].bodies[3].centroid[1].toFixed(3)}); ` +
        `closest settled ${closest.toExponential(2)} m, dHat ${last.dHat.toExponential(2)} m`,
    );
  }, 300_000);

  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('at 2 iterations every body falls, lands on something and the pile comes to rest', () => {
    const [first, last] = [fast[0], fast.at(-1)];
    last.bodies.forEach((body, i) => {
      expect(body.centroid[1], `body ${i} fell`).toBeLessThan(first.bodies[i].centroid[1] - 0.05);
      expect(body.clearance, `body ${i} rests on something`).toBeLessThan(last.dHat);
    });
    expect(kinetic(last)).toBeLessThan(0.01 * Math.max(...fast.map(kinetic)));
    // Apart at every step; settled contacts at a distance of the order of dHat.
    for (const record of fast) expect(record.minDistance ?? Infinity).toBeGreaterThan(0);
    for (const record of fast.slice(-60))
      expect(record.minDistance ?? Infinity).toBeGreaterThan(1e-3 * record.dHat);
  });

  it('at 2 iterations the pile comes to rest as high as 30 iterations put it, within 3 cm', () => {
    expect(Math.abs(height(fast.at(-1)) - height(reference.at(-1)))).toBeLessThan(0.03);
  });

  // A known loss (docs/contact.md, "Where it loses"). Both runs fall alike, each body at g until
  // it lands on the one below (to step 14); then at 30 iterations the soft octopi flatten under
  // the bodies above and the stack slides apart (at step 30 the top body is at 0.25 m), while at
  // 2 iterations the stack stands longer (0.42 m). Those steps take 57 to 120 iterations to
  // converge; at 4 or 8 iterations per step (16 or 32 on impacts) the stack still stands at step
  // 24. Marked as failing so that a fix shows here as a pass; the 16 cm gap at step 30 (before
  // the pile turns chaotic) keeps the mark from flipping by chance on another processor.
  it.fails('at 2 iterations the stack falls as 30 iterations make it fall, within 3 cm', () => {
    const top = (records) => records[29].bodies[3].centroid[1];
    expect(Math.abs(top(fast) - top(reference))).toBeLessThan(0.03);
  });
});
