// `npx smfem bench-contact`: the contact benchmarks of the wasm build (docs/performance.md,
// "Contact"), on the build's baked scenes (build/native/assets/contact/):
//   - the crab (m 16, |C| 342, 1,024 contact samples) resting on the ground against the same
//     crab with nothing to touch: milliseconds per iteration, and what contact adds; and resting
//     with local deformations (crab-dented.json: its stiff legs attach no patch), what they add;
//   - the poke (poke.json: a ball pressed into a soft block, m 8, and held; steps 45-150) with
//     local deformations and without, and what the patches they attach add a step; and the same
//     block baked at the crab's m and |C| (16, 342: issue 26's "crab-sized body"; a patch's
//     support holds about the same number of tets on any mesh, its radius following the tets'
//     size) under a ball of 30 cm, which attaches 4 to 5 patches;
//   - piles of 1 to 30 jelly cubes (m 8, |C| 64, 470 samples each) dropped into a box: the step
//     time per body count while the pile settles (steps 30-130: bodies falling, landing and
//     making contacts; the bodies' mean kinetic energy over those steps says they moved) and once
//     it has (steps 400-500; how many bodies sleep), and the cost per body relative to one body,
//     also over the steps that iterated only (one cube sleeps within the settling window), and the
//     slowest step (where islands merge, the merged island is built);
//   - the shipped scenes pile-30.json (settling: steps 30-130) and rain-100.json (once mostly
//     asleep: steps 400-500).
// Each crab run: W untimed steps (it falls and settles), then N timed; medians. The native twin
// is build/bin/smfem-scene (same scenes, --warmup W).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { bakedAsset } from './simulate.js';

const folder = fileURLToPath(new URL('../../build/native/assets/contact/', import.meta.url));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The ground (y = 0) and four walls at x, z = +-half: an open box, as scene-file obstacles. */
export function boxObstacles(half) {
  const wall = (point, normal) => ({ type: 'plane', point, normal });
  return [
    wall([0, 0, 0], [0, 1, 0]),
    wall([-half, 0, 0], [1, 0, 0]),
    wall([half, 0, 0], [-1, 0, 0]),
    wall([0, 0, -half], [0, 0, 1]),
    wall([0, 0, half], [0, 0, -1]),
  ];
}

// How far above the floor a pile's lowest layer starts: it lands after 0.45 s (28 steps), so every
// pile, of one body or of thirty, falls, lands and settles during the timed steps 30-130. (Started
// on the floor, piles of up to 9 bodies were asleep by step 30, and the cost per body compared
// thirty moving bodies with one resting.)
const kDropHeight = 1.0;

/** A pile of `count` jelly cubes on a 3 x 3 grid, layer above layer, dropped into a box. */
export function pileScene(count) {
  const bodies = Array.from({ length: count }, (_, i) => ({
    asset: 'bodies/jelly-cube.smfem',
    translation: [
      0.25 * ((i % 3) - 1),
      kDropHeight + 0.12 + 0.26 * Math.floor(i / 9) + 0.02 * (i % 9),
      0.25 * ((Math.floor(i / 3) % 3) - 1),
    ],
  }));
  return {
    timestep: 0.016,
    gravity: [0, -9.8, 0],
    friction: 0.5,
    obstacles: boxObstacles(0.42),
    bodies,
  };
}

/** The scene with every body's local deformations off. */
const withoutLocalDeformations = (scene) => ({
  ...scene,
  bodies: scene.bodies.map((body) => ({ ...body, localDeformations: false })),
});

const recipes = fileURLToPath(new URL('../../assets/scenes/contact/', import.meta.url));

/**
 * The poke's block baked at the crab's m and |C| (its recipe's subspace), pressed by a ball of
 * 30 cm that starts where the poke's starts (its lowest point as high) and follows its path:
 * the poke's ball attaches 2 patches to this block, this one 4 to 5 over the timed steps.
 */
async function crabSizedPoke(smfem, pokeScene, options) {
  const { subspace } = JSON.parse(await readFile(`${recipes}bodies/crab.json`, 'utf8'));
  const asset = await bakedAsset(`${recipes}bodies/soft-block.json`, [
    '--modes',
    String(subspace.modes),
    '--cubature',
    String(subspace.cubature),
    '--full-mesh',
  ]);
  const block = { bytes: await readFile(asset), name: 'soft-block.smfem' };
  const [ball] = pokeScene.obstacles;
  const radius = 0.15;
  const center = [ball.center[0], ball.center[1] - ball.radius + radius, ball.center[2]];
  const scene = { ...pokeScene, obstacles: [{ ...ball, center, radius }] };
  const dented = await timed(smfem, scene, [block], options);
  const plain = await timed(smfem, withoutLocalDeformations(scene), [block], options);
  return {
    modes: subspace.modes,
    cubature: subspace.cubature,
    dented,
    without: plain,
    overhead: dented.stepMs / plain.stepMs - 1,
  };
}

async function timed(smfem, text, assets, { warmup, steps, iterations, sleeping = true }) {
  const scene = smfem.createContactScene(JSON.stringify(text), assets, {
    parameters: { iterations },
    sleeping,
  });
  try {
    scene.step(warmup);
    const reports = scene.step(steps);
    // Steps that iterated: a body asleep for part of the window (one cube sleeps soon after it
    // lands) makes the median a sleeping step's, which is no cost per body to compare with.
    const working = reports.filter((r) => r.iterations > 0);
    return {
      stepMs: median(reports.map((r) => r.stepMs)),
      // The steps where islands merge build the merged island's model: the page stalls there.
      slowestStepMs: Math.max(...reports.map((r) => r.stepMs)),
      workingStepMs: working.length > 0 ? median(working.map((r) => r.stepMs)) : NaN,
      iterationMs: median(reports.map((r) => r.stepMs / Math.max(r.iterations, 1))),
      iterations: reports.reduce((sum, r) => sum + r.iterations, 0) / reports.length,
      activeContacts: reports.at(-1).activeContacts,
      kinetic: reports.reduce((sum, r) => sum + r.energy.kinetic, 0) / reports.length,
      asleep: reports.at(-1).asleep,
      patches: reports.at(-1).bodies.reduce((sum, body) => sum + (body.localPatches ?? 0), 0),
      threads: scene.info.threads,
    };
  } finally {
    scene.dispose();
  }
}

/** Runs the benchmarks; returns their figures (and prints them as they come). */
export async function contactBench(
  smfem,
  { warmup = 300, steps = 200, iterations = 2, print = console.log } = {},
) {
  const options = { warmup, steps, iterations };
  const load = async (name) => ({ bytes: await readFile(`${folder}${name}`), name });
  const crab = await load('bodies/crab.smfem');
  const rest = JSON.parse(await readFile(`${folder}crab-rest.json`, 'utf8'));
  const alone = JSON.parse(await readFile(`${folder}crab-alone.json`, 'utf8'));
  // Awake throughout: a crab at rest falls asleep and would cost nothing per step.
  const resting = await timed(smfem, rest, [crab], { ...options, sleeping: false });
  const free = await timed(smfem, alone, [crab], { ...options, sleeping: false });
  const overhead = resting.iterationMs / free.iterationMs - 1;
  print(
    `crab resting (${resting.activeContacts} active pairs): ${resting.iterationMs.toFixed(3)} ms per iteration, ` +
      `alone ${free.iterationMs.toFixed(3)} ms: contact adds ${(100 * overhead).toFixed(1)} % ` +
      `(${resting.threads} threads, ${iterations} iterations per step)`,
  );
  const dentedScene = JSON.parse(await readFile(`${folder}crab-dented.json`, 'utf8'));
  const dented = await timed(smfem, dentedScene, [crab], { ...options, sleeping: false });
  const localOverhead = dented.iterationMs / resting.iterationMs - 1;
  print(
    `crab resting with local deformations (${dented.patches} patches): ${dented.iterationMs.toFixed(3)} ms ` +
      `per iteration, without ${resting.iterationMs.toFixed(3)} ms: local deformations add ` +
      `${(100 * localOverhead).toFixed(1)} % (${dented.iterations.toFixed(2)} iterations per step)`,
  );
  // Local deformations that attach patches: the poke's ball pressed into the soft block and held
  // (steps 45-150), against the same scene with them off.
  const pokeScene = JSON.parse(await readFile(`${folder}poke.json`, 'utf8'));
  const block = await load('bodies/soft-block.smfem');
  const pokeOptions = { ...options, warmup: 45, steps: 105, sleeping: false };
  const poked = await timed(smfem, pokeScene, [block], pokeOptions);
  const unpoked = await timed(smfem, withoutLocalDeformations(pokeScene), [block], pokeOptions);
  const pokeOverhead = poked.stepMs / unpoked.stepMs - 1;
  print(
    `poke, the ball held (${poked.patches} patches at the end): ${poked.stepMs.toFixed(3)} ms per step ` +
      `(${poked.iterations.toFixed(2)} iterations), without local deformations ${unpoked.stepMs.toFixed(3)} ms ` +
      `(${unpoked.iterations.toFixed(2)}): they add ${(100 * pokeOverhead).toFixed(1)} %`,
  );
  const crabSized = await crabSizedPoke(smfem, pokeScene, pokeOptions);
  print(
    `poke at the crab's m ${crabSized.modes} and |C| ${crabSized.cubature}, a ball of 30 cm ` +
      `(${crabSized.dented.patches} patches at the end): ${crabSized.dented.stepMs.toFixed(3)} ms per step ` +
      `(${crabSized.dented.iterations.toFixed(2)} iterations), without local deformations ` +
      `${crabSized.without.stepMs.toFixed(3)} ms: they add ${(100 * crabSized.overhead).toFixed(1)} %`,
  );
  const jelly = await load('bodies/jelly-cube.smfem');
  const piles = [];
  const describe = (pile) =>
    `${pile.stepMs.toFixed(2)} ms per step (slowest ${pile.slowestStepMs.toFixed(1)}), ` +
    `${pile.iterations.toFixed(2)} iterations per step, ` +
    `${pile.activeContacts} active pairs, mean kinetic ${pile.kinetic.toPrecision(2)} J, ${pile.asleep} asleep`;
  for (const count of [1, 2, 4, 8, 12, 20, 30]) {
    const timedAfter = (untimed) =>
      timed(smfem, pileScene(count), Array(count).fill(jelly), {
        ...options,
        warmup: untimed,
        steps: Math.min(steps, 100),
      });
    const settling = await timedAfter(30);
    const settled = await timedAfter(400);
    piles.push({ bodies: count, settling, settled });
    const perBody = (pile, one, field = 'stepMs') => (pile[field] / count / one[field]).toFixed(2);
    print(
      `pile of ${count}: settling ${describe(settling)}; settled ${describe(settled)}; ` +
        `per body x${perBody(settling, piles[0].settling)} settling, x${perBody(settled, piles[0].settled)} settled; ` +
        `per body over the steps that iterated x${perBody(settling, piles[0].settling, 'workingStepMs')} settling`,
    );
  }
  const shipped = {};
  for (const [name, untimed] of [
    ['pile-30', 30],
    ['rain-100', 400],
  ]) {
    const text = JSON.parse(await readFile(`${folder}${name}.json`, 'utf8'));
    // Each asset read once, however many bodies share it (rain-100: 3 files for 100 bodies).
    const files = new Map();
    for (const { asset } of text.bodies) if (!files.has(asset)) files.set(asset, await load(asset));
    const bodies = text.bodies.map(({ asset }) => files.get(asset));
    shipped[name] = await timed(smfem, text, bodies, {
      ...options,
      warmup: untimed,
      steps: Math.min(steps, 100),
    });
    print(`${name}.json after ${untimed} steps: ${describe(shipped[name])}`);
  }
  return {
    crab: { resting, alone: free, overhead, dented, localOverhead },
    poke: { dented: poked, without: unpoked, overhead: pokeOverhead },
    crabSizedPoke: crabSized,
    piles,
    shipped,
  };
}
