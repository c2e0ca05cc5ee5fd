// Curved shells that bend by their hinges, on surfaces nobody here made: the boundaries of the
// third-party bunny and octopus tet meshes (../shared/data, not part of the product), scaled to
// 25 cm, as soft rubber 2 mm thick, dropped 10 cm onto the ground at the page's settings (2
// iterations, 60 steps per second). Every step succeeds and stays above the ground, no step gains
// energy, the shell comes to rest in an equilibrium (30 further steps at 30 iterations leave it
// where it is: it does not hover), and it rests higher than the same membrane without bending
// (which folds). A soft shell has several equilibria, and which one a landing ends in depends on
// how much energy the impact keeps: the octopus rests where the 30-iteration run rests (0.0400 m
// both), the bunny higher (0.098 m against 0.076 m at 30 iterations and 0.081 m at 100; the
// 2-iteration landing keeps less of its fall to buckle the shell further). Printed, not asserted.
// Skipped, never passed, where the meshes are absent.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSmfem } from '../../wasm/js/loader.js';

const shared = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
const meshes = { bunny: 'coarse_bunny.mesh', octopus: 'octopuslowdef.mesh' };
const present = Object.values(meshes).every((file) => existsSync(join(shared, file)));

/**
 * The boundary of a MEDIT tet mesh (the faces of one tet only) as OBJ text, centred over the
 * origin, `width` metres across, its lowest point `drop` metres above y = 0.
 */
function boundaryObj(text, width, drop) {
  const tokens = text.split(/\s+/).filter(Boolean);
  const section = (name, perEntry) => {
    const at = tokens.indexOf(name);
    return Array.from({ length: Number(tokens[at + 1]) }, (_, i) =>
      tokens.slice(at + 2 + i * perEntry, at + 2 + (i + 1) * perEntry).map(Number),
    );
  };
  const vertices = section('Vertices', 4).map((v) => v.slice(0, 3));
  const faces = new Map(); // sorted corners -> [corners as the tet orders them, count]
  for (const [a, b, c, d] of section('Tetrahedra', 5)) {
    for (const face of [
      [a, b, c],
      [a, b, d],
      [a, c, d],
      [b, c, d],
    ]) {
      const key = [...face].sort((x, y) => x - y).join(' ');
      faces.set(key, [face, (faces.get(key)?.[1] ?? 0) + 1]);
    }
  }
  const boundary = [...faces.values()].filter(([, count]) => count === 1).map(([face]) => face);
  const used = [...new Set(boundary.flat())];
  const index = new Map(used.map((v, i) => [v, i + 1]));
  const points = used.map((v) => vertices[v - 1]);
  const low = [0, 1, 2].map((a) => Math.min(...points.map((p) => p[a])));
  const high = [0, 1, 2].map((a) => Math.max(...points.map((p) => p[a])));
  const scale = width / Math.max(...high.map((h, a) => h - low[a]));
  const placed = points.map((p) => [
    scale * (p[0] - 0.5 * (low[0] + high[0])),
    scale * (p[1] - low[1]) + drop,
    scale * (p[2] - 0.5 * (low[2] + high[2])),
  ]);
  return [
    ...placed.map((p) => `v ${p.join(' ')}`),
    ...boundary.map((face) => `f ${face.map((v) => index.get(v)).join(' ')}`),
    '',
  ].join('\n');
}

const recipe = (bending) =>
  JSON.stringify({
    shell: { mesh: 'surface.obj', thickness: 2e-3, youngs: 3e6, poisson: 0.4, density: 1000, bending },
    obstacles: [{ type: 'plane', point: [0, 0, 0], normal: [0, 1, 0] }],
  });

describe.skipIf(!present)('curved shells from third-party meshes', () => {
  let smfem;
  beforeAll(async () => {
    smfem = await loadSmfem({ build: 'threads' });
  });

  it.each(Object.keys(meshes))(
    'the %s as a rubber shell lands, comes to rest in an equilibrium and keeps its shape by bending',
    (name) => {
      const obj = boundaryObj(readFileSync(join(shared, meshes[name]), 'utf8'), 0.25, 0.1);
      const files = [{ name: 'surface.obj', bytes: new TextEncoder().encode(obj) }];
      // 90 steps at `iterations`, then (where `then`) 30 more at that many.
      const run = (bending, iterations, then = 0) => {
        const parameters = { iterations, timestep: 1 / 60 };
        const simulator = smfem.createThinSimulator(recipe(bending), {
          sourceName: `${name}.json`,
          files,
          parameters,
        });
        const reports = simulator.step(90);
        if (then) simulator.setParameters({ ...parameters, iterations: then });
        const after = then ? simulator.step(30) : [];
        simulator.dispose();
        return [reports, after];
      };
      const [page, continued] = run(true, 2, 30);
      const [converged] = run(true, 30);
      const [membrane] = run(false, 2);
      const rest = (reports) => reports.at(-1).centroid[1];
      console.log(
        `${name}: rests at ${rest(page).toFixed(4)} m (30 iterations ${rest(converged).toFixed(4)}, ` +
          `without bending ${rest(membrane).toFixed(4)}), from ${page[0].centroid[1].toFixed(4)}; ` +
          `largest step gain ${Math.max(...page.map((r) => r.energyGain)).toExponential(2)} J, ` +
          `closest ${Math.min(...page.map((r) => r.minDistance)).toExponential(2)} m, ` +
          `${page.filter((r) => r.retries > 0).length} steps redone`,
      );
      expect(page.every((r) => r.ok && r.minDistance > 0)).toBe(true);
      expect(Math.max(...page.map((r) => r.energyGain))).toBeLessThanOrEqual(1e-9);
      expect(page[0].centroid[1] - rest(page)).toBeGreaterThan(0.05); // it fell and landed
      expect(Math.abs(rest(continued) - rest(page))).toBeLessThan(1e-3);
      expect(rest(page)).toBeGreaterThan(rest(membrane) + 0.01);
    },
    180_000,
  );
});
