// `npx smfem bench-thin`: the cost of shells and rods in the wasm build (docs/thin.md, "Cost"),
// at the page's settings (2 iterations, 60 steps per second), on scenes that move while timed:
//   - square cloths of 16 x 16, 32 x 32 and 48 x 48 vertices, 1 m wide, held by two corners,
//     swinging down onto a sphere (E 1e8, 0.1 kg / m^2): the median ms per step over steps
//     5-64 (falling, swinging and touching the sphere; the mean kinetic energy says it moved);
//   - a rope of 500 vertices pinned at one end, swinging;
//   - the shipped coil spring (thin/coil-spring.json: 289 vertices, a curved rod whose joints
//     bend and twist) bouncing from its clamp, by the mixed step;
//   - paper 002's rods bunny: the shipped assets/scenes/thin/bunny-rods.json (502 vertices,
//     1,500 rods) dropping 10 cm onto the ground, by FEM (its recipe's) and by the mixed step,
//     whose retried impact steps the mean shows where the median does not;
//   - the shell bunny: the shipped bunny-shell.json (502 vertices, 1,000 triangles, bending at
//     its 1,500 hinges) dropping 10 cm onto the ground, by the mixed step (its recipe's);
//   - paper 002's figure 2: the shipped bunny-three-ways.json (the bunny as 1,632 tets, as a
//     shell and as rods, one solver) dropping, by the mixed step.
// Against Trusty et al. 2022, Table 1 (Apple M1, multithreaded): square cloth 5,929 vertices in
// 55 ms a step, rods bunny 500 vertices in 12.9 ms: the ratio of vertex-steps per second, ours
// over the paper's (above 1: more work per second than the paper).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readThinRecipeFiles } from './simulate.js';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const kPaper = { cloth: 5929 / 55, rods: 500 / 12.9 }; // vertex-steps per ms

/** A 1 m cloth of n x n vertices held by two corners, 10 cm above a 20 cm sphere below its middle. */
export function clothRecipe(n) {
  return {
    name: `cloth ${n} x ${n}`,
    shell: {
      grid: [n, n],
      size: [1, 1],
      center: [0, 0.5, 0],
      thickness: 5e-4,
      density: 200,
      youngs: 1e8,
      pins: [0, n - 1],
    },
    obstacles: [{ type: 'sphere', center: [0, 0.2, 0.2], radius: 0.2 }],
  };
}

export function ropeRecipe(points) {
  return { name: `rope of ${points}`, rod: { points, length: 1, radius: 2e-3, youngs: 1e8, pins: 'first' } };
}

const shipped = fileURLToPath(new URL('../../assets/scenes/thin/', import.meta.url));

function timed(smfem, recipe, { steps, iterations, warmup, method, files = [] }) {
  const parameters = { iterations, timestep: 1 / 60, ...(method ? { solver: method } : {}) };
  const text = typeof recipe === 'string' ? recipe : JSON.stringify(recipe);
  const simulator = smfem.createThinSimulator(text, { parameters, files });
  try {
    simulator.step(warmup);
    const reports = simulator.step(steps);
    const stepMs = median(reports.map((r) => r.stepMs));
    return {
      vertices: simulator.info.vertices,
      unknowns: simulator.info.unknowns,
      threads: simulator.info.threads,
      stepMs,
      meanMs: reports.reduce((sum, r) => sum + r.stepMs, 0) / reports.length,
      retries: reports.reduce((sum, r) => sum + r.retries, 0),
      iterations: reports.reduce((sum, r) => sum + r.iterations, 0) / reports.length,
      kinetic: reports.reduce((sum, r) => sum + r.energy.kinetic, 0) / reports.length,
      maxStrain: Math.max(...reports.map((r) => r.maxStrain)),
      touching: reports.some((r) => r.activeContacts > 0),
      failed: reports.filter((r) => !r.ok).length,
    };
  } finally {
    simulator.dispose();
  }
}

/** Runs the benchmarks; returns their figures (and prints them as they come). */
export async function thinBench(smfem, { steps = 60, iterations = 2, print = console.log } = {}) {
  const options = { steps, iterations, warmup: 5 };
  const describe = (name, r, paper) =>
    `${name}: ${r.stepMs.toFixed(2)} ms per step (${(1000 / r.stepMs).toFixed(1)} steps/s), ` +
    `${r.unknowns} unknowns, ${r.iterations.toFixed(2)} iterations per step, mean kinetic ` +
    `${r.kinetic.toPrecision(2)} J, largest strain ${r.maxStrain.toPrecision(2)}` +
    `${r.touching ? ', touching' : ''}, ${r.failed} failed, ${r.threads} threads, mean ` +
    `${r.meanMs.toFixed(1)} ms with ${r.retries} steps redone; ` +
    `vertex-steps per second ${((r.vertices / r.stepMs / paper) * 100).toFixed(0)} % of paper 002's`;
  const out = { cloths: [], rope: null };
  for (const n of [16, 32, 48]) {
    const r = timed(smfem, clothRecipe(n), options);
    out.cloths.push({ n, ...r });
    print(describe(`cloth ${n} x ${n}`, r, kPaper.cloth));
  }
  out.rope = timed(smfem, ropeRecipe(500), options);
  print(describe('rope of 500', out.rope, kPaper.rods));
  const shippedRecipe = async (name) => {
    const path = join(shipped, name);
    const text = await readFile(path, 'utf8');
    return { text, files: await readThinRecipeFiles(smfem, path, text) };
  };
  const spring = await shippedRecipe('coil-spring.json');
  out.coilSpring = timed(smfem, spring.text, options);
  print(describe('coil spring, mfem', out.coilSpring, kPaper.rods));
  const rods = await shippedRecipe('bunny-rods.json');
  out.bunnyRods = {};
  for (const method of ['fem', 'mfem']) {
    out.bunnyRods[method] = timed(smfem, rods.text, { ...options, method, files: rods.files });
    print(describe(`rods bunny, ${method}`, out.bunnyRods[method], kPaper.rods));
  }
  const shell = await shippedRecipe('bunny-shell.json');
  out.bunnyShell = timed(smfem, shell.text, { ...options, files: shell.files });
  print(describe('shell bunny, mfem', out.bunnyShell, kPaper.cloth));
  const threeWays = await shippedRecipe('bunny-three-ways.json');
  out.bunnyThreeWays = timed(smfem, threeWays.text, { ...options, files: threeWays.files });
  print(describe('bunny three ways, mfem', out.bunnyThreeWays, kPaper.rods));
  return out;
}
