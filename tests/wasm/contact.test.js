// Scenes with contact in the wasm build (wasm/src/smfem/multibody/, loader.js: createContactScene),
// on the procedural box (its asset carries a contact group): no penetration at any step, at 1
// and 2 iterations and converged; bodies that settle; momentum passed on, not lost; the CLI
// printing the API's reports; the native runner agreeing; bad scenes refused by name.
import { execFile } from 'node:child_process';
import { access, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSmfem } from '../../wasm/js/loader.js';
import { syntheticAsset } from '../../wasm/js/synthetic_asset.js';

const cli = fileURLToPath(new URL('../../wasm/js/cli.js', import.meta.url));
const nativeScene = fileURLToPath(new URL('../../build/bin/smfem-scene', import.meta.url));
const exec = promisify(execFile);

// The box spans [0, 1] x [0, 0.4] x [0, 0.4]; the ground 5 cm below it.
const ground = { type: 'plane', point: [0, -0.05, 0], normal: [0, 1, 0] };
const drop = (extra = {}) => ({
  timestep: 0.01,
  gravity: [0, -9.81, 0],
  friction: 0.5,
  obstacles: [ground],
  bodies: [{ asset: 'box.smfem', translation: [0, 0.1, 0] }],
  ...extra,
});
const sum = (a, b) => a.map((x, i) => x + b[i]);

describe('contact', () => {
  let smfem, box, folder;

  beforeAll(async () => {
    smfem = await loadSmfem({ build: 'threads' });
    box = syntheticAsset(4, 48);
    folder = await mkdtemp(join(tmpdir(), 'smfem-contact-test-'));
    await writeFile(join(folder, 'box.smfem'), box);
  });

  afterAll(async () => {
    smfem?.dispose();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const scene = (text, count, parameters = {}) =>
    smfem.createContactScene(
      JSON.stringify(text),
      Array.from({ length: count }, () => ({ bytes: box, name: 'box.smfem' })),
      { parameters, threads: 1 },
    );

  for (const [label, parameters] of [
    ['1 iteration', { iterations: 1 }],
    ['2 iterations', { iterations: 2 }],
    ['converged', { iterations: 50, untilConverged: true }],
  ]) {
    it(`drops a box that never enters the ground and comes to rest (${label})`, () => {
      const dropped = scene(drop(), 1, parameters);
      const reports = dropped.step(250);
      dropped.dispose();
      expect(reports).toHaveLength(250);
      for (const report of reports) {
        expect(report.ok).toBe(true);
        expect(report.minDistance).toBeGreaterThan(0);
      }
      const kinetic = reports.map((r) => r.energy.kinetic);
      const peak = Math.max(...kinetic);
      expect(peak).toBeGreaterThan(10);
      expect(Math.max(...kinetic.slice(-20))).toBeLessThan(1e-6 * peak);
      expect(reports.at(-1).activeContacts).toBeGreaterThan(0);
    });
  }

  it('refuses what a scene cannot take, naming it: materials, an obstacle index that is not whole', () => {
    const dropped = scene(drop(), 1);
    try {
      // Its bodies' materials are their assets': the parameter was dropped without a word.
      expect(() => dropped.setParameters({ materials: [{ region: 0, youngs: 1e5 }] })).toThrow(
        "parameter materials: a contact scene's bodies keep their assets' materials",
      );
      expect(() => dropped.moveObstacle(NaN, [0, 0.1, 0])).toThrow('obstacle NaN is not an index');
      expect(() => dropped.dragStart(0.5, 0, [0, 1, 0], 10)).toThrow('body 0.5 is not an index');
    } finally {
      dropped.dispose();
    }
  });

  it('tells the page what to draw: the obstacles as the file gives them, the contact points', () => {
    const sphere = { type: 'sphere', center: [2, 1, 0], radius: 0.25 };
    const box = { type: 'box', center: [-2, 1, 0], half_extents: [0.1, 0.2, 0.3] };
    const capsule = { type: 'capsule', from: [0, 1, 2], to: [1, 1, 2], radius: 0.1 };
    const dropped = scene(drop({ obstacles: [ground, sphere, box, capsule] }), 1);
    expect(dropped.info.obstacles).toEqual([
      ground,
      sphere,
      { type: 'box', center: box.center, halfExtents: box.half_extents },
      capsule,
    ]);
    expect(dropped.contactPoints()).toHaveLength(0);
    dropped.step(1);
    expect(dropped.contactPoints()).toHaveLength(0); // still 5 cm up
    const [rested] = dropped.step(200).slice(-1);
    const points = dropped.contactPoints();
    // The bottom face's samples, each within the activation distance above the ground.
    expect(points.length).toBeGreaterThan(3 * 4);
    expect(points.length % 3).toBe(0);
    const dhat = dropped.info.activationDistance;
    for (let i = 0; i < points.length; i += 3) {
      expect(points[i + 1] - ground.point[1]).toBeGreaterThan(0);
      expect(points[i + 1] - ground.point[1]).toBeLessThan(dhat + 1e-6);
    }
    expect(points.length / 3).toBeLessThanOrEqual(rested.activeContacts);
    dropped.reset();
    expect(dropped.contactPoints()).toHaveLength(0);
    dropped.dispose();
  });

  it('passes momentum from a thrown box to a resting one, keeping the total', () => {
    for (const iterations of [1, 2]) {
      const text = {
        timestep: 0.01,
        gravity: [0, 0, 0],
        bodies: [
          { asset: 'box.smfem', velocity: [2, 0, 0] },
          { asset: 'box.smfem', translation: [1.05, 0.1, 0] },
        ],
      };
      const pair = scene(text, 2, { iterations });
      const reports = pair.step(60);
      pair.dispose();
      const before = sum(reports[0].bodies[0].linearMomentum, reports[0].bodies[1].linearMomentum);
      for (const report of reports) {
        // (null while the boxes are apart, in islands of their own: nothing to measure)
        expect(report.minDistance ?? Infinity).toBeGreaterThan(0);
        const total = sum(report.bodies[0].linearMomentum, report.bodies[1].linearMomentum);
        expect(Math.abs(total[0] - before[0])).toBeLessThan(1e-6 * Math.abs(before[0]));
      }
      // The resting box was hit and moves off.
      expect(reports.at(-1).bodies[1].linearMomentum[0]).toBeGreaterThan(0.3 * before[0]);
    }
  });

  it('lets a resting box fall asleep unless the scene is created with sleeping: false', () => {
    const make = (options) =>
      smfem.createContactScene(JSON.stringify(drop()), [{ bytes: box, name: 'box.smfem' }], {
        threads: 1,
        ...options,
      });
    const sleepy = make({});
    const awake = make({ sleeping: false });
    const slept = sleepy.step(250).at(-1);
    const kept = awake.step(250).at(-1);
    sleepy.dispose();
    awake.dispose();
    expect(slept.asleep).toBe(1);
    expect(slept.iterations).toBe(0);
    // The same rest, stepped: 2 iterations every step, never asleep.
    expect(kept.asleep).toBe(0);
    expect(kept.iterations).toBeGreaterThan(0);
    expect(Math.abs(kept.bodies[0].centroid[1] - slept.bodies[0].centroid[1])).toBeLessThan(1e-3);
    expect(() => make({ sleeping: 'no' })).toThrow(/option sleeping must be true or false/);
    expect(() => make({ sleepy: true })).toThrow(/option sleepy is not a scene option/);
  });

  it('runs a scene file from the CLI, printing the API reports with minDistance, dHat and bodies', async () => {
    const file = join(folder, 'drop.json');
    await writeFile(file, JSON.stringify(drop()));
    const { stdout } = await exec(process.execPath, [cli, 'simulate', file, '--steps', '40', '--json']);
    const records = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const dropped = scene(drop(), 1);
    const reports = dropped.step(40);
    dropped.dispose();
    expect(records).toHaveLength(40);
    records.forEach((record, i) => {
      expect(record.minDistance).toBe(reports[i].minDistance);
      expect(record.activeContacts).toBe(reports[i].activeContacts);
      expect(record.kinetic).toBe(reports[i].energy.kinetic);
      expect(record.dHat).toBe(reports[i].dHat);
      expect(record.bodies).toEqual(
        reports[i].bodies.map(({ centroid, kinetic, asleep, localPatches }) => ({
          centroid,
          kinetic,
          asleep,
          localPatches,
        })),
      );
    });
    expect(records.at(-1).activeContacts).toBeGreaterThan(0);
    // The dropped box fell: its own centroid went down.
    expect(records.at(-1).bodies[0].centroid[1]).toBeLessThan(records[0].bodies[0].centroid[1]);
  });

  it('gives the native runner results to rounding', async () => {
    const file = join(folder, 'drop.json');
    await writeFile(file, JSON.stringify(drop()));
    const { stdout } = await exec(nativeScene, [file, join(folder, 'box.smfem'), '--steps', '60', '--json']);
    const native = stdout
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    const dropped = scene(drop(), 1);
    const reports = dropped.step(60);
    dropped.dispose();
    // Not to the bit: -march=native fuses multiply-adds that wasm rounds twice, and contact's
    // barrier magnifies the difference (measured: 8e-7 J apart at step 60, of a 60 J peak).
    const peak = Math.max(...reports.map((r) => r.energy.kinetic));
    expect(native).toHaveLength(60);
    native.forEach((record, i) => {
      expect(Math.abs(record.kinetic - reports[i].energy.kinetic)).toBeLessThan(1e-4 * peak);
      expect(record.minDistance).toBeGreaterThan(0);
    });
  });

  it('keeps the box out of the ground however hard it is dragged into it', () => {
    const dragged = scene(drop(), 1, { iterations: 2 });
    dragged.dragStart(0, 0, [0.3, -2, 0.2], 2e6);
    const reports = [...dragged.step(50)];
    dragged.dragMove([3, -5, -1]);
    reports.push(...dragged.step(50));
    dragged.dragEnd();
    expect(() => dragged.dragStart(1, 0, [0, 0, 0], 1)).toThrow(/no body 1/);
    dragged.dispose();
    expect(reports).toHaveLength(100);
    for (const report of reports) expect(report.minDistance).toBeGreaterThan(0);
  });

  it('pushes the box across the floor ahead of a sphere dragged into it by hand', () => {
    // The sphere 5 cm short of the box's face at x = 0, large enough to meet the face's corner
    // samples; dragged 1 cm a step (1 m/s) for a second. The floor's friction (0.5) does not
    // stop it: the hand moves the obstacle, whatever it takes.
    const ball = { type: 'sphere', center: [-0.35, 0.2, 0.2], radius: 0.3 };
    const swept = scene(
      {
        ...drop(),
        obstacles: [{ ...ground, point: [0, -0.002, 0] }, ball],
        bodies: [{ asset: 'box.smfem' }],
      },
      1,
      { iterations: 2 },
    );
    const reports = [];
    for (let step = 1; step <= 100; ++step) {
      swept.moveObstacle(1, [0.01 * step, 0, 0]);
      reports.push(...swept.step(1));
    }
    swept.dispose();
    for (const report of reports) expect(report.minDistance).toBeGreaterThan(0);
    const [first, last] = [reports[0], reports.at(-1)];
    // The sphere kept to the hand, and the box went ahead of it (before, the sphere stalled at the
    // box and the barrier alone pushed it, at a few centimetres a second).
    expect(last.obstacleOffsets[1][0]).toBeCloseTo(1, 2);
    expect(last.bodies[0].centroid[0] - first.bodies[0].centroid[0]).toBeGreaterThan(0.85);
    expect(Math.abs(last.bodies[0].centroid[1] - first.bodies[0].centroid[1])).toBeLessThan(0.01);
  });

  it('ships scene files whose bodies exist, and that start and step in the build', async () => {
    const sources = fileURLToPath(new URL('../../assets/scenes/contact/', import.meta.url));
    const built = fileURLToPath(new URL('../../build/native/assets/contact/', import.meta.url));
    const names = (await readdir(sources)).filter((name) => name.endsWith('.json'));
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const source = JSON.parse(await readFile(join(sources, name), 'utf8'));
      for (const body of source.bodies) await access(join(sources, body.recipe ?? body.asset));
      // The build's copy names the baked assets instead of the recipes.
      const text = await readFile(join(built, name), 'utf8');
      const assets = await Promise.all(
        JSON.parse(text).bodies.map(async ({ asset }) => ({
          bytes: await readFile(join(dirname(join(built, name)), asset)),
          name: asset,
        })),
      );
      const opened = smfem.createContactScene(text, assets, { sourceName: name, threads: 1 });
      try {
        for (const report of opened.step(3)) {
          expect(report.ok, name).toBe(true);
          // (null: nothing to touch, crab-alone.json)
          expect(report.minDistance ?? Infinity, name).toBeGreaterThan(0);
        }
      } finally {
        opened.dispose();
      }
    }
  });

  it('refuses bad scenes with a message naming the problem', () => {
    const inside = { type: 'sphere', center: [0.5, 0.2, 0.2], radius: 0.1 };
    expect(() => scene(drop({ obstacles: [inside] }), 1)).toThrow(/inside body 0/);
    expect(() => scene(drop({ contact: { activation_distance: 0 } }), 1)).toThrow(/activation_distance/);
    expect(() => scene(drop({ friction: 1e6 }), 1)).toThrow(/friction/);
    expect(() => scene(drop({ bodies: [] }), 0)).toThrow(/bodies/);
    expect(() => scene(drop({ obstacles: [{ type: 'cone' }] }), 1)).toThrow(/type/);
    expect(() => scene(drop(), 2)).toThrow(/1 bodies but 2 assets/);
    // Local deformations need the body's tet mesh, which this asset was baked without.
    const local = { bodies: [{ asset: 'box.smfem', translation: [0, 0.1, 0], localDeformations: true }] };
    expect(() => scene(drop(local), 1)).toThrow(
      /bodies\[0\] \(box\.smfem\) asks for localDeformations.*--full-mesh/,
    );
    const overlapping = {
      bodies: [{ asset: 'box.smfem' }, { asset: 'box.smfem', translation: [0.5, 0, 0] }],
    };
    expect(() => scene(drop(overlapping), 2)).toThrow(/overlaps|touch/);
    // A body it does not have: an Error naming it (it threw a bare number).
    const one = scene(drop(), 1);
    expect(() => one.bodyDent(9)).toThrow('bodyDent: no body 9 (the scene has 1)');
    expect(() => one.bodyDent(0.5)).toThrow(/no body 0\.5/);
    expect(one.bodyDent(0)).toBeNull();
    one.dispose();
  });
});
