// `npx smfem simulate`: a headless run of one scene in the wasm build, one record per step.
//
//   smfem simulate <asset.smfem | recipe.json | scene.json> [--solver mfem|fem] [--variant curvature|paper|projected]
//                  [--iters K] [--steps N] [--dt H] [--converged] [--energy-check on|off]
//                  [--eigenfit on|off|relinearized] [--drag VERTEX X Y Z K] [--json | --csv] [--trajectory out.bin] [--build threads|single]
//                  [--render DIR/ | out.mp4] [--render-every K] [--size WxH] [--force]
//                  [--subspace skinning|linear|modal_derivatives]
//
// A recipe is baked first (build/bin/smfem-bake; cached in build/bake-cache). A recipe with a
// "shell", a "rod" or "parts" (wasm/src/smfem/thin/thin_recipe.hpp) runs that body in full space
// (no bake; its records add maxStrain, the largest edge strain, null for anything else; no
// --render or --subspace yet; --drag takes a vertex of its mesh). A scene file with "bodies"
// (assets/scenes/README.md, "Scenes with contact") runs its bodies together with contact; its
// bodies' recipes are baked the same way, and its records add minDistance, activeContacts,
// dHat, bodies (each body's centroid, kinetic, asleep and localPatches, the patches its local
// deformations have attached) and obstacleForces (the force the
// bodies press on each obstacle, N, the barrier's; friction's not in it); null, 0, null, null and
// null for a single asset, which has no obstacles. --json prints one JSON object per line and
// step; --csv the same as columns (vectors as _x _y _z, bodies as body0_centroid_x, ...);
// neither, a summary. The values are the JS API's step report's (loader.d.ts: StepReport), so
// the two agree to the bit. --trajectory writes the reduced coordinates of every step
// (trajectory_file.js).
//
// --render draws the deformed render surface every K steps (--render-every; by default about 30
// frames per simulated second) with three.js in headless Chromium (render_frames.js: the page's
// skinning shader; a scene with contact shows every body and its obstacles; no floor), --size
// pixels (default 960x540), from the asset's meta.camera or else framing the rest shape (widened
// as the page's view is when a body leaves it, FrameView.js): PNGs
// frame-00001.png, ... into DIR/ (a path ending in / or an existing folder; new or empty), or an
// mp4 at the simulated speed if ffmpeg is on PATH (an odd side padded by a pixel). The output,
// Chromium and ffmpeg are checked before anything is simulated; the output appears whole at the
// end or not at all; the cost per frame goes to stderr.
//
// An existing --trajectory or --render mp4 file, or a --render folder that is not empty, is
// refused before anything runs; --force replaces the file, or writes its frames among the
// folder's files (output_guard.js).
//
// --converged iterates each step until its Newton decrement converges, at most --iters times (200,
// the stepper's most, when --iters is not given).
//
// --eigenfit off steps an asset baked with EigenFit (smfem-bake --eigenfit, a recipe's
// fit_resolution) without its correction (the JS API's eigenFit; on by default), relinearized
// re-fits it every step (eigenFitRelinearized).
//
// --subspace linear|modal_derivatives steps a comparison subspace of Subspace MFEM
// (Trusty et al. 2023), Fig. 5 instead of the skinning eigenmodes: the displacement basis an asset
// baked with smfem-bake --comparison-basis carries (a recipe is baked so), with that bake's
// cubature, through the same FEM and MFEM steps (loader.js: createDisplacementSimulator). Its
// records are the same; --trajectory writes q (r = k); --drag and --render do not apply (no render
// weights).
//
// A progress bar goes to stderr where it is a terminal.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  access,
  constants,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import solverLimits from '../src/smfem/sim/solver_limits.json' with { type: 'json' };
import { readInput } from './input_files.js';
import { nativeTool } from './native_tools.js';
import { optionNumber } from './option_values.js';
import { refuseExistingFile, requireWritableFolder } from './output_guard.js';
import { TrajectoryFile } from './trajectory_file.js';
import { besideOutput, cannotWrite } from './work_files.js';
import { FrameRenderer, defaultRenderEvery, parseSize } from './render_frames.js';

// The install's bake cache, then the user's where the install cannot be written (a read-only or
// shared checkout): looked up in this order, and written to the first that can be.
const bakeCaches = [
  fileURLToPath(new URL('../../build/bake-cache', import.meta.url)),
  join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'smfem', 'bake-cache'),
];

export const usageText =
  'smfem simulate <asset.smfem | recipe.json | scene.json> [--solver mfem|fem] [--variant curvature|paper|projected] ' +
  '[--iters K] [--steps N] [--dt H] [--converged] [--energy-check on|off] [--eigenfit on|off|relinearized] ' +
  '[--drag VERTEX X Y Z K] ' +
  '[--json | --csv] [--trajectory out.bin] [--build threads|single] [--render DIR/ | out.mp4] ' +
  '[--render-every K] [--size WxH] [--force] [--subspace skinning|linear|modal_derivatives]';

/** Parses the arguments; throws an Error naming the bad one. */
export function parseSimulateArgs(args) {
  const options = { steps: 100, format: 'summary', build: 'threads', subspace: 'skinning', parameters: {} };
  const value = (i, name) => {
    if (i >= args.length) throw new Error(`${name} needs a value`);
    return args[i];
  };
  const number = (i, name, check, expected) => optionNumber(value(i, name), name, check, expected);
  for (let i = 0; i < args.length; ++i) {
    const arg = args[i];
    if (arg === '--solver') {
      options.parameters.solver = value(++i, arg);
      if (!['mfem', 'fem'].includes(options.parameters.solver))
        throw new Error('--solver must be mfem or fem');
    } else if (arg === '--variant') {
      // Checked by the simulator, the owner of the variants' names.
      options.parameters.mixedVariant = value(++i, arg);
    } else if (arg === '--iters') {
      options.parameters.iterations = number(++i, arg, Number.isInteger, 'a whole number');
    } else if (arg === '--steps') {
      const wholeInRange = (x) => Number.isInteger(x) && x >= 1 && x <= 1e7;
      options.steps = number(++i, arg, wholeInRange, 'a whole number from 1 to 10000000');
    } else if (arg === '--dt') {
      options.parameters.timestep = number(++i, arg, (x) => x > 0, 'a number above 0 (seconds)');
    } else if (arg === '--converged') {
      options.parameters.untilConverged = true;
    } else if (arg === '--energy-check') {
      const on = value(++i, arg);
      if (on !== 'on' && on !== 'off') throw new Error('--energy-check must be on or off');
      options.parameters.energyCheck = on === 'on';
    } else if (arg === '--eigenfit') {
      const mode = value(++i, arg);
      if (!['on', 'off', 'relinearized'].includes(mode))
        throw new Error('--eigenfit must be on, off or relinearized');
      options.parameters.eigenFit = mode !== 'off';
      if (mode === 'relinearized') options.parameters.eigenFitRelinearized = true;
    } else if (arg === '--drag') {
      options.drag = {
        vertex: number(++i, arg, Number.isInteger, 'a whole number (a vertex)'),
        target: [number(++i, arg), number(++i, arg), number(++i, arg)],
        stiffness: number(++i, arg, (x) => x >= 0, 'a stiffness of at least 0'),
      };
    } else if (arg === '--json' || arg === '--csv') {
      if (options.format !== 'summary' && options.format !== arg.slice(2))
        throw new Error('give --json or --csv, not both');
      options.format = arg.slice(2);
    } else if (arg === '--force') {
      options.force = true;
    } else if (arg === '--trajectory') {
      options.trajectory = value(++i, arg);
    } else if (arg === '--build') {
      options.build = value(++i, arg);
      if (!['threads', 'single'].includes(options.build))
        throw new Error('--build must be threads or single');
    } else if (arg === '--render') {
      options.render = value(++i, arg);
    } else if (arg === '--render-every') {
      options.renderEvery = number(
        ++i,
        arg,
        (x) => Number.isInteger(x) && x >= 1,
        'a whole number of at least 1',
      );
    } else if (arg === '--size') {
      options.size = parseSize(value(++i, arg));
    } else if (arg === '--subspace') {
      // Other names than skinning are checked by the bake and the asset reader, their owners.
      options.subspace = value(++i, arg);
    } else if (!arg.startsWith('-') && options.scene === undefined) {
      options.scene = arg;
    } else {
      throw new Error(`unknown argument ${arg}`);
    }
  }
  if (options.scene === undefined) throw new Error('give an asset or a recipe');
  // A converged run asked for without --iters: the asset's own count (2, mostly) would stop each
  // step there, converged or not.
  if (options.parameters.untilConverged) options.parameters.iterations ??= solverLimits.iterations.max;
  if (options.subspace !== 'skinning' && options.build === 'single')
    throw new Error(`--subspace ${options.subspace} runs on the threaded build only (--build threads)`);
  if (options.subspace !== 'skinning' && (options.drag || options.render))
    throw new Error(
      `--drag and --render need the skinning subspace (a ${options.subspace} basis has no render weights)`,
    );
  if (!options.render && (options.renderEvery || options.size))
    throw new Error('--render-every and --size go with --render');
  if (options.renderEvery > options.steps)
    throw new Error(`--render-every ${options.renderEvery} is more than --steps ${options.steps}: no frame`);
  options.size ??= parseSize('960x540');
  return options;
}

/**
 * Text without the byte-order mark some editors begin a UTF-8 file with: JSON.parse refuses it
 * where the C++ readers skip it, so a recipe with one was taken for a scene of no bodies.
 */
const withoutByteOrderMark = (text) => (text.startsWith('\uFEFF') ? text.slice(1) : text);

/** A JSON file's text (readInput), without a byte-order mark. */
const readJsonText = async (path) => withoutByteOrderMark(await readInput(path, 'utf8'));

/**
 * The other file of a TetGen mesh (foo.node for foo.ele and the other way round, in the case of
 * the given extension), which the bake reads with it (precompute/src/smfem/mesh/tetgen.cpp), or
 * null for any other file.
 */
function tetgenPartner(path) {
  const match = /\.(node|ele)$/i.exec(path);
  if (!match) return null;
  const upper = match[1] === match[1].toUpperCase();
  const other = match[1].toLowerCase() === 'node' ? 'ele' : 'node';
  return path.slice(0, match.index + 1) + (upper ? other.toUpperCase() : other);
}

/**
 * Adds to `hash` the recipe's text and every file it names (each string of it that is the path of
 * a file, relative to the recipe's folder; a named .json is followed in turn, a TetGen mesh's
 * other file is added): an edited mesh must not find the bake of the old one. Which keys name
 * files is the bake's business (precompute/src/smfem/scene/load_recipe.cpp); a string that only
 * looks like a path costs a stat.
 */
async function hashRecipeInputs(hash, path, seen = new Set()) {
  const where = resolve(path);
  if (seen.has(where)) return;
  seen.add(where);
  const bytes = await readInput(where);
  hash.update(`${where}\0${bytes.length}\0`).update(bytes);
  const partner = tetgenPartner(where);
  if (partner && (await stat(partner).catch(() => null))?.isFile())
    await hashRecipeInputs(hash, partner, seen);
  if (!where.endsWith('.json')) return;
  let recipe;
  try {
    recipe = JSON.parse(withoutByteOrderMark(bytes.toString('utf8')));
  } catch {
    return; // the bake names what is wrong with it
  }
  // Every string in it, by a walk with a stack of its own: a recipe nested thousands of levels
  // deep (which the bake refuses, naming where) overflowed the call stack of a recursive one.
  const strings = [];
  for (const pending = [recipe]; pending.length > 0;) {
    const value = pending.pop();
    if (typeof value === 'string') strings.push(value);
    else if (value && typeof value === 'object') for (const item of Object.values(value)) pending.push(item);
  }
  for (const text of new Set(strings)) {
    const named = resolve(dirname(where), text);
    if ((await stat(named).catch(() => null))?.isFile()) await hashRecipeInputs(hash, named, seen);
  }
}

// What a bake cache may hold: beyond it, the bakes used longest ago go (a bake is rerun when
// wanted again). Every rebuild of the bake tool starts new keys, so without a bound the cache
// grows by every scene's bodies each time.
const bakeCacheBytes = 2 ** 30;

/** Where a cached bake's warnings are kept (smfem-bake's stderr, when it printed any). */
const warningsOf = (bake) => bake.replace(/\.smfem$/, '.warnings');

/**
 * Removes the .smfem files of `folder` used longest ago (by modification time, which a cache
 * hit renews), with their warnings, until they take at most `maxBytes`; never `keep`, the bake
 * just made.
 */
export async function pruneBakeCache(folder, keep, maxBytes = bakeCacheBytes) {
  const entries = [];
  for (const name of await readdir(folder)) {
    if (!name.endsWith('.smfem')) continue;
    const info = await stat(join(folder, name)).catch(() => null);
    if (info?.isFile()) entries.push({ path: join(folder, name), size: info.size, used: info.mtimeMs });
  }
  let total = entries.reduce((sum, { size }) => sum + size, 0);
  entries.sort((a, b) => a.used - b.used);
  for (const { path, size } of entries) {
    if (total <= maxBytes) break;
    if (path === keep) continue;
    await rm(path, { force: true });
    await rm(warningsOf(path), { force: true });
    total -= size;
  }
}

/** The bake cache's folder: the install's, or where it cannot be written the user's. */
async function writableBakeCache() {
  for (const folder of bakeCaches) {
    const usable = await mkdir(folder, { recursive: true })
      .then(() => access(folder, constants.W_OK))
      .then(() => true)
      .catch(() => false);
    if (usable) return folder;
  }
  throw new Error(`no folder to keep bakes in: none of ${bakeCaches.join(', ')} can be written`);
}

/**
 * The path of a recipe's bake (with `bakeArgs`, smfem-bake's options), baked on first use. Bakes
 * are cached in build/bake-cache (or the user's cache folder) under a hash of the recipe, the
 * files it names, the options and the bake tool (a scene's bodies are baked once, not every run).
 */
export async function bakedAsset(recipe, bakeArgs = []) {
  const bakeTool = nativeTool('smfem-bake');
  const tool = await stat(bakeTool);
  const hash = createHash('sha256');
  await hashRecipeInputs(hash, recipe);
  const key = hash.update(`${tool.mtimeMs} ${tool.size} ${JSON.stringify(bakeArgs)}`).digest('hex');
  for (const folder of bakeCaches) {
    const found = join(folder, `${key}.smfem`);
    if (await stat(found).catch(() => null)) {
      const now = new Date();
      await utimes(found, now, now).catch(() => {}); // used now (a read-only cache stays as it is)
      // The bake's warnings, at every run: a cached bake is the same body, as likely mis-scaled.
      const warnings = await readFile(warningsOf(found), 'utf8').catch(() => '');
      if (warnings) process.stderr.write(warnings);
      return found;
    }
  }
  const cache = await writableBakeCache();
  const cached = join(cache, `${key}.smfem`);
  const folder = await mkdtemp(join(tmpdir(), 'smfem-simulate-'));
  try {
    const asset = join(folder, `${basename(recipe, '.json')}.smfem`);
    const { stderr } = await promisify(execFile)(bakeTool, [
      recipe,
      '-o',
      asset,
      '--quiet',
      ...bakeArgs,
    ]).catch((error) => {
      // What is wrong, without the usage smfem-bake prints after an option it refuses.
      throw new Error((error.stderr || error.message).split(/^usage: /m)[0].trim());
    });
    // Its warnings (a body so large that its mesh is likely not in metres, what a mesh reader
    // skipped), kept beside the bake for the runs that find it cached.
    if (stderr) {
      process.stderr.write(stderr);
      await writeAtomically(warningsOf(cached), Buffer.from(stderr, 'utf8'));
    }
    await writeAtomically(cached, await readFile(asset));
    await pruneBakeCache(cache, cached);
    return cached;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The asset's bytes: read, or for a .json recipe baked first (bakedAsset). */
async function assetBytes(path, bakeArgs = []) {
  return readInput(path.endsWith('.json') ? await bakedAsset(path, bakeArgs) : path);
}

/** A scene file's text and its bodies' assets (paths relative to the file), or null for a recipe. */
async function contactScene(path) {
  if (!path.endsWith('.json')) return null;
  const text = await readJsonText(path);
  let scene;
  try {
    scene = JSON.parse(text);
  } catch {
    // The scene reader says what is wrong and where, by line and column (Node's JSON.parse
    // names a character position, or nothing, and may quote the whole file).
    return { text, assets: [] };
  }
  if (scene?.bodies === undefined) {
    if (scene?.geometry !== undefined) return null; // a body's recipe
    // A misspelt "bodies" was baked as a recipe, and the bake listed a recipe's keys.
    throw new Error(
      `${path}: neither a scene file (it has no "bodies") nor a body's recipe (no "geometry"); ` +
        `a shell's or a rod's recipe has "shell", "rod" or "parts" (assets/scenes/README.md)`,
    );
  }
  if (!Array.isArray(scene.bodies)) throw new Error(`${path}: bodies: must be an array of bodies`);
  const assets = [];
  for (const [i, body] of scene.bodies.entries()) {
    const file = body?.asset ?? body?.recipe;
    if (typeof file !== 'string') throw new Error(`${path}: bodies[${i}] needs an "asset" or a "recipe"`);
    const where = resolve(dirname(path), file);
    const key = body.asset === undefined ? 'recipe' : 'asset';
    try {
      await access(where);
    } catch {
      throw new Error(`${path}: bodies[${i}].${key} "${file}" is not there (looked for ${where})`);
    }
    if (await thinRecipe(where))
      throw new Error(
        `${path}: bodies[${i}].${key} "${file}" is a shell's or a rod's recipe: a scene file's bodies ` +
          `are volumes (run a shell or a rod by itself: its recipe takes "obstacles")`,
      );
    // A body with local deformations needs its tet mesh in its asset.
    const bakeArgs = body.localDeformations === true ? ['--full-mesh'] : [];
    assets.push({ bytes: await assetBytes(where, bakeArgs), name: basename(file) });
  }
  return { text, assets };
}

/** The displacement basis of an asset or a recipe (--subspace linear|modal_derivatives). */
async function openDisplacementBasis(smfem, options) {
  const sourceName = basename(options.scene);
  const path = options.scene.endsWith('.json')
    ? await bakedAsset(options.scene, ['--comparison-basis', options.subspace])
    : options.scene;
  const bytes = await readInput(path);
  let simulator;
  try {
    simulator = smfem.createDisplacementSimulator(bytes, { sourceName, parameters: options.parameters });
  } catch (error) {
    // An asset baked without one names only the section it lacks.
    if (!/displacement\.basis.*missing/.test(error.message)) throw error;
    throw new Error(
      `${sourceName} carries no comparison subspace: bake it with smfem-bake --comparison-basis ` +
        `linear|modal_derivatives (a recipe given to --subspace is baked so)`,
    );
  }
  const { basis, coordinates, parameters } = simulator.info;
  if (basis !== options.subspace) {
    simulator.dispose();
    throw new Error(
      `${sourceName} carries a ${basis} basis, not ${options.subspace}: bake it with --comparison-basis ${options.subspace}`,
    );
  }
  return {
    stepper: simulator,
    size: coordinates,
    timestep: parameters.timestep,
    parameters,
    assets: [{ bytes, name: sourceName }],
    contact: null,
  };
}

/** A shell's or rod's recipe text (it has a "shell", a "rod" or "parts"), or null for anything else. */
async function thinRecipe(path) {
  if (!path.endsWith('.json')) return null;
  const text = await readJsonText(path);
  try {
    const recipe = JSON.parse(text);
    return recipe?.shell !== undefined || recipe?.rod !== undefined || recipe?.parts !== undefined
      ? text
      : null;
  } catch {
    return null; // contactScene says what is wrong with it
  }
}

/** The mesh files a thin recipe names, read from beside it. */
export async function readThinRecipeFiles(smfem, path, text) {
  const files = [];
  for (const name of smfem.thinRecipeFiles(text, { sourceName: basename(path) })) {
    const where = resolve(dirname(path), name);
    try {
      files.push({ name, bytes: await readFile(where) });
    } catch {
      throw new Error(`${path}: the mesh "${name}" is not there (looked for ${where})`);
    }
  }
  return files;
}

/** A shell or a rod (thin bodies, full space): the recipe read by the C++ side. */
async function openThin(smfem, options, text) {
  if (options.subspace !== 'skinning') throw new Error('--subspace does not apply to a shell or rod');
  if (options.render) throw new Error('--render does not draw shells or rods yet');
  const simulator = smfem.createThinSimulator(text, {
    sourceName: basename(options.scene),
    parameters: options.parameters,
    files: await readThinRecipeFiles(smfem, options.scene, text),
  });
  // --drag VERTEX: a vertex of the mesh (a body's is a render vertex).
  if (options.drag) simulator.dragStart(options.drag.vertex, options.drag.target, options.drag.stiffness);
  const { parameters, vertices } = simulator.info;
  return {
    stepper: simulator,
    size: 3 * vertices,
    timestep: parameters.timestep,
    parameters,
    assets: [],
    contact: null,
    space: 'full space',
  };
}

/** The stepper of a scene file (several bodies with contact) or of one asset, behind one face. */
async function openScene(smfem, options) {
  const sourceName = basename(options.scene);
  const thin = await thinRecipe(options.scene);
  if (thin) return openThin(smfem, options, thin);
  const scene = await contactScene(options.scene);
  if (scene && options.subspace !== 'skinning')
    throw new Error('--subspace applies to a single asset or recipe');
  if (options.subspace !== 'skinning') return openDisplacementBasis(smfem, options);
  if (scene) {
    if (options.drag) throw new Error('--drag applies to a single asset (a scene file moves obstacles)');
    const contact = smfem.createContactScene(scene.text, scene.assets, {
      sourceName,
      parameters: options.parameters,
    });
    const { timestep } = contact.info;
    return {
      stepper: contact,
      size: contact.info.modes * 12,
      timestep,
      assets: scene.assets,
      contact: contact.info,
    };
  }
  const bytes = await assetBytes(options.scene);
  let simulator;
  try {
    simulator = smfem.createSimulator(bytes, { sourceName, parameters: options.parameters });
  } catch (error) {
    // A file of another kind (notes.txt) read as an asset named only the header it lacks.
    if (options.scene.endsWith('.smfem')) throw error;
    throw new Error(
      `${options.scene}: neither a baked asset (.smfem) nor a recipe or scene file (.json): ${error.message}`,
    );
  }
  if (options.drag) simulator.dragStart(options.drag.vertex, options.drag.target, options.drag.stiffness);
  if (options.parameters.eigenFit !== undefined && simulator.info.eigenFit === null)
    process.stderr.write(
      `smfem: warning: --eigenfit does nothing here: ${sourceName} carries no EigenFit ` +
        `(bake it with smfem-bake --eigenfit, or from a recipe with fit_resolution)\n`,
    );
  const { parameters } = simulator.info;
  return {
    stepper: simulator,
    size: simulator.info.modes * 12,
    timestep: parameters.timestep,
    parameters,
    assets: [{ bytes, name: sourceName }],
    contact: null,
  };
}

/** One step's record: the report's values under the names the CLI prints. */
export function stepRecord(step, report, obstacleForces = null) {
  return {
    step,
    time: report.time,
    ok: report.ok,
    kinetic: report.energy.kinetic,
    elastic: report.energy.elastic,
    gravity: report.energy.gravity,
    spring: report.energy.spring,
    contact: report.energy.contact,
    total: report.energy.total,
    linearMomentum: report.linearMomentum,
    angularMomentum: report.angularMomentum,
    centroid: report.centroid,
    iterations: report.iterations,
    decrement: report.decrement,
    backtracks: report.lineSearchSteps,
    retries: report.retries,
    energyGain: report.energyGain,
    minDistance: report.minDistance ?? null,
    activeContacts: report.activeContacts ?? 0,
    obstaclesHeld: report.obstaclesHeld ?? null,
    dHat: report.dHat ?? null,
    bodies:
      report.bodies?.map(({ centroid, kinetic, asleep, localPatches }) => ({
        centroid,
        kinetic,
        asleep,
        localPatches,
      })) ?? null,
    obstacleForces,
    maxStrain: report.maxStrain ?? null,
    wallMs: report.stepMs,
  };
}

/** A record as CSV columns: vectors as key_x, key_y, key_z; bodies as body0_centroid_x, ... */
function csvColumns(record) {
  return Object.entries(record).flatMap(([key, value]) => {
    if (key === 'bodies') {
      return (value ?? []).flatMap((body, i) => csvColumns(body).map(([k, v]) => [`body${i}_${k}`, v]));
    }
    if (key === 'obstacleForces') {
      return (value ?? []).flatMap((force, i) =>
        force.map((v, axis) => [`obstacle${i}_force_${'xyz'[axis]}`, v]),
      );
    }
    if (Array.isArray(value)) return value.map((v, axis) => [`${key}_${'xyz'[axis]}`, v]);
    return [[key, value ?? '']];
  });
}

const csvHeader = (record) =>
  csvColumns(record)
    .map(([key]) => key)
    .join(',');
const csvRow = (record) =>
  csvColumns(record)
    .map(([, value]) => value)
    .join(',');

function progress(step, steps) {
  if (!process.stderr.isTTY) return;
  const width = 30;
  const done = Math.round((width * step) / steps);
  process.stderr.write(`\r[${'#'.repeat(done)}${' '.repeat(width - done)}] step ${step}/${steps}`);
  if (step === steps) process.stderr.write('\n');
}

/** Writes `bytes` to path through a temporary file in the same folder (never half a file). */
async function writeAtomically(path, bytes) {
  const temporary = besideOutput(path, 'tmp');
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw cannotWrite(path, error);
  }
}

/** Runs `smfem simulate` with parsed options in a loaded module; prints to `out`. */
export async function simulate(smfem, options, out = process.stdout) {
  // Checked (output, Chromium, ffmpeg) and started before anything is baked or simulated.
  if (options.trajectory) {
    await refuseExistingFile(options.trajectory, '--trajectory', options.force);
    await requireWritableFolder(options.trajectory, '--trajectory');
  }
  const frames = options.render
    ? await FrameRenderer.start(options.render, options.size, options.force)
    : null;
  let scene = null;
  let trajectory = null;
  // A write error (the reader gone: EPIPE) is read from out.errored after each step; heard
  // here, it does not also end the process while the run awaits its trajectory's writes.
  const heard = () => {};
  out.on?.('error', heard);
  try {
    scene = await openScene(smfem, options);
    const { stepper: simulator, size, timestep, parameters } = scene;
    const every = options.renderEvery ?? Math.min(defaultRenderEvery(timestep), options.steps);
    await frames?.open(smfem, scene);
    for (const warning of simulator.warnings()) process.stderr.write(`smfem: warning: ${warning}\n`);
    trajectory = options.trajectory
      ? await TrajectoryFile.create(options.trajectory, options.steps, size)
      : null;
    let failed = 0,
      iterations = 0,
      wallMs = 0,
      last;
    for (let step = 1; step <= options.steps; ++step) {
      const [report] = simulator.step(1);
      const record = stepRecord(step, report, simulator.obstacleForces?.() ?? null);
      if (options.format === 'json') out.write(`${JSON.stringify(record)}\n`);
      if (options.format === 'csv')
        out.write(`${step === 1 ? `${csvHeader(record)}\n` : ''}${csvRow(record)}\n`);
      // The reader went away (`| head`): stop, as a pipe's writer does, and write nothing more.
      if (out.errored?.code === 'EPIPE') throw out.errored;
      await trajectory?.append(simulator.coordinatesF64());
      if (frames && step % every === 0)
        await frames.frame(simulator.coordinatesF64(), report.obstacleOffsets);
      failed += report.ok ? 0 : 1;
      iterations += report.iterations;
      wallMs += report.stepMs;
      last = record;
      progress(step, options.steps);
    }
    for (const warning of simulator.warnings()) process.stderr.write(`smfem: warning: ${warning}\n`);
    await trajectory?.commit();
    trajectory = null;
    if (frames) {
      await frames.finish(1 / (every * timestep));
      process.stderr.write(`smfem: ${frames.summary()}\n`);
    }
    if (options.format === 'summary') {
      const solver = parameters
        ? `${parameters.solver}${parameters.solver === 'mfem' ? ` (${parameters.mixedVariant})` : ''}`
        : `${options.parameters.solver ?? "the assets' solver"}, with contact`;
      out.write(
        `${basename(options.scene)}: ${options.steps} steps of ${timestep} s, ${solver}, ${scene.space ?? `${options.subspace} subspace`} (${size} coordinates), ` +
          `${(iterations / options.steps).toFixed(2)} iterations per step, ${failed} failed, ` +
          `${(wallMs / options.steps).toFixed(3)} ms per step; at the end: kinetic ${last.kinetic.toPrecision(6)} J, ` +
          `elastic ${last.elastic.toPrecision(6)} J\n`,
      );
    }
    // Nothing was simulated (the records say so step by step); a script checks the status.
    if (failed === options.steps)
      throw new Error(`every one of the ${options.steps} steps failed ("ok": false in each record)`);
  } finally {
    await trajectory?.discard(); // cut short: an error, or the reader of stdout gone
    scene?.stepper.dispose();
    await frames?.close();
    out.off?.('error', heard);
  }
}
