// Scenes with contact move as physics says at the page's own settings (the bodies' baked
// solver, 2 iterations), in the wasm build, on the shipped scenes (build/native/assets/contact/):
// a body that touches nothing falls at g; a thrown ball reaches the wall and knocks it over; a
// pile falls, settles, and nothing in it hovers. Islands and sleeping: contact_scene.hpp.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSmfem } from '../../wasm/js/loader.js';

const built = fileURLToPath(new URL('../../build/native/assets/contact/', import.meta.url));

async function open(smfem, name, parameters = {}) {
  const text = await readFile(join(built, name), 'utf8');
  const assets = await Promise.all(
    JSON.parse(text).bodies.map(async ({ asset }) => ({
      bytes: await readFile(join(dirname(join(built, name)), asset)),
      name: asset,
    })),
  );
  return smfem.createContactScene(text, assets, { sourceName: name, parameters });
}

describe('contact motion at the page settings', () => {
  let smfem;
  beforeAll(async () => {
    smfem = await loadSmfem({ build: 'threads' });
  });
  afterAll(() => smfem?.dispose());

  it('lets the top body of the pile fall at g until it meets the others', async () => {
    const pile = await open(smfem, 'jelly-pile.json');
    try {
      expect(pile.info.parameters.iterations).toBe(2);
      const h = pile.info.timestep;
      const top = pile.info.bodies.length - 1;
      const reports = pile.step(12);
      // Implicit Euler from rest: y_n = y_0 - g h^2 n (n + 1) / 2, so y_0 = y_1 + g h^2.
      const g = 9.8;
      const y0 = reports[0].bodies[top].centroid[1] + g * h * h;
      reports.forEach((report, i) => {
        const n = i + 1;
        expect(Math.abs(report.bodies[top].centroid[1] - (y0 - (g * h * h * n * (n + 1)) / 2))).toBeLessThan(
          1e-9,
        );
      });
    } finally {
      pile.dispose();
    }
  });

  it('throws the ball at the wall and knocks a block over', async () => {
    const scene = await open(smfem, 'ball-wall.json');
    try {
      const reports = scene.step(150);
      const ball = reports[0].bodies.length - 1;
      const last = reports.at(-1).bodies;
      // The ball came to the wall (z = 0.05 m), from 0.8 m.
      expect(Math.min(...reports.map((r) => r.bodies[ball].centroid[2]))).toBeLessThan(0.12);
      // A block of the top row was pushed off the wall: it moved 10 cm or more and fell (at 30
      // iterations four blocks go, the top two 0.2-0.3 m back, all to the ground).
      const knocked = [4, 5].filter((b) => {
        const [x0, y0, z0] = reports[0].bodies[b].centroid;
        const [x, y, z] = last[b].centroid;
        return Math.hypot(x - x0, y - y0, z - z0) > 0.1 && y < y0 - 0.1;
      });
      expect(knocked.length).toBeGreaterThan(0);
      for (const report of reports) expect(report.minDistance).toBeGreaterThan(0);
    } finally {
      scene.dispose();
    }
  });

  // Two free bodies thrown at each other with no gravity, friction or obstacle: the total
  // momentum through the collision is what it was. Two balls at 2 iterations lost 28 to 58 % of
  // it in the impact step (the step cut short by CCD left their common motion behind).
  it.each([
    ['ball', 'ball', 0],
    ['ball', 'ball', 0.05],
    ['ball', 'ball', 0.1],
    ['bunny', 'ball', 0.03],
    ['jelly-cube', 'bunny', 0.05],
  ])('keeps the momentum of a %s and a %s that collide %f m off centre', async (a, b, offset) => {
    const scene = {
      timestep: 0.016,
      gravity: [0, 0, 0],
      friction: 0,
      obstacles: [],
      bodies: [
        { asset: `${a}.smfem`, translation: [-0.4, 1, 0], velocity: [2, 0, 0] },
        { asset: `${b}.smfem`, translation: [0.4, 1 + offset, 0], velocity: [-1, 0, 0] },
      ],
    };
    const assets = await Promise.all(
      [a, b].map(async (name) => ({
        bytes: await readFile(join(built, 'bodies', `${name}.smfem`)),
        name: `${name}.smfem`,
      })),
    );
    const run = smfem.createContactScene(JSON.stringify(scene), assets, { parameters: { iterations: 2 } });
    try {
      const reports = run.step(40);
      const [before, after] = [reports[0], reports.at(-1)].map((r) => r.linearMomentum);
      const minimum = Math.min(...reports.map((r) => r.minDistance ?? Infinity));
      const lost = Math.hypot(...after.map((p, d) => p - before[d])) / Math.hypot(...before);
      console.log(
        `${a} and ${b}, ${offset} m off: closest ${minimum.toExponential(2)} m, momentum lost ${lost.toExponential(2)}`,
      );
      expect(minimum, 'they collided').toBeLessThan(reports[0].dHat);
      expect(lost).toBeLessThan(1e-6); // measured 3e-13 to 2e-8 (the balls lost 0.28-0.58)
    } finally {
      run.dispose();
    }
  });

  it('piles the jelly bodies: every one falls, settles and rests on something', async () => {
    const pile = await open(smfem, 'jelly-pile.json');
    try {
      const reports = pile.step(300);
      const first = reports[0].bodies;
      const last = reports.at(-1);
      for (const [i, body] of last.bodies.entries()) {
        expect(body.centroid[1], `body ${i} fell`).toBeLessThan(first[i].centroid[1] - 0.02);
        expect(body.clearance, `body ${i} rests on something`).toBeLessThan(last.dHat);
      }
      // Settled: the kinetic energy left is below 1 % of the fall's peak (a body may still creep).
      const peak = Math.max(...reports.map((r) => r.energy.kinetic));
      expect(last.energy.kinetic).toBeLessThan(0.01 * peak);
      // Where a 30-iteration run piles them: the scene's centroid at 0.105 to 0.136 m, depending
      // on which body ends on top (docs/contact.md).
      expect(last.centroid[1]).toBeLessThan(0.15);
      // Settled contacts sit at a distance of the order of dHat, not of rounding (impacts on the
      // way may come closer; every step stays apart).
      for (const report of reports) expect(report.minDistance).toBeGreaterThan(0);
      for (const report of reports.slice(-50)) {
        expect(report.minDistance).toBeGreaterThan(1e-3 * report.dHat);
      }
    } finally {
      pile.dispose();
    }
  }, 240_000); // 300 steps of a pile whose truncated steps are often retried
});
