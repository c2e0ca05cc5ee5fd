// The one loader of the smfem WebAssembly module, for Node (tests, CLI) and the browser.
//
//   import { loadSmfem } from './wasm/js/loader.js';
//   const smfem = await loadSmfem();          // picks 'threads' or 'single'
//   smfem.inspectAsset(bytes, 'crab.smfem');  // validated table of contents and metadata
//   const sim = smfem.createSimulator(bytes, { parameters: { solver: 'mfem', iterations: 2 } });
//   sim.step(1); const u = sim.coordinates();  // Float32Array copy for the GPU
//   smfem.dispose();                          // ends the simulators and worker threads
//
// Flavour: 'threads' (SIMD + pthreads, needs SharedArrayBuffer: Node, or a page that is
// cross-origin isolated by COOP/COEP headers) or 'single' (SIMD only, works on any host).
// Module: the page's (the stepper, contact scenes, assets), or under Node with `tools: true`
// the same plus the claims suite, the convergence study and the displacement bases
// (smfem-tools, built beside it by scripts/setup.sh --all; the page never downloads it).
// Under Node the pthread workers are unref'd, so they never keep the process alive.

import { chooseBuild, instantiate, isNode } from './instantiate.js';

export { chooseBuild };

// Literal `new URL(..., import.meta.url)` expressions: Vite copies these files into a
// production build with content hashes, so a new page never meets an old .wasm.
const files = {
  threads: {
    classic: new URL('../../build/wasm-threads/module/smfem.js', import.meta.url),
    esm: new URL('../../build/wasm-threads/module/smfem.mjs', import.meta.url),
    wasm: new URL('../../build/wasm-threads/module/smfem.wasm', import.meta.url),
    worker: new URL('../../build/wasm-threads/module/smfem.worker.js', import.meta.url),
  },
  single: {
    classic: new URL('../../build/wasm-single/module/smfem.js', import.meta.url),
    esm: new URL('../../build/wasm-single/module/smfem.mjs', import.meta.url),
    wasm: new URL('../../build/wasm-single/module/smfem.wasm', import.meta.url),
  },
};

/**
 * Loads and instantiates the module.
 * @param {{build?: 'auto'|'threads'|'single', tools?: boolean, onProgress?: (loaded: number, total: number) => void}} options
 */
export async function loadSmfem({ build = 'auto', tools = false, onProgress } = {}) {
  const flavour = build === 'auto' ? chooseBuild() : build;
  if (!files[flavour]) throw new Error(`smfem: unknown build '${build}' (use auto, threads or single)`);
  if (tools && !isNode) throw new Error('smfem: the tools module (tools: true) runs under Node only');
  if (tools && flavour === 'single') {
    throw new Error("smfem: the tools module (tools: true) is built threaded only: use build 'threads'");
  }
  if (flavour === 'threads' && !isNode && !globalThis.crossOriginIsolated) {
    throw new Error("smfem: the 'threads' build needs a cross-origin isolated page (COOP/COEP headers)");
  }
  // The tools module lies beside the page's, named smfem-tools.* (not a literal URL above, so
  // that a page build never copies it).
  const load = (chosen) =>
    instantiate(files[chosen], {
      label: 'smfem',
      onProgress,
      renameInNode: (path) => (tools ? path.replace(/smfem(\.[a-z.]+)$/, 'smfem-tools$1') : path),
      buildHint: tools ? 'bash scripts/setup.sh --all' : 'npm start',
    });
  // A browser that allows shared memory may still fail to start the threaded module (its shared
  // memory not granted, its file blocked): a page left to choose then runs on one thread and
  // says why. Under Node, or with a build asked for by name, the failure is the caller's.
  if (build === 'auto' && flavour === 'threads' && !isNode) {
    try {
      return wrap(await load('threads'), 'threads');
    } catch (error) {
      return wrap(await load('single'), 'single', String(error?.message ?? error));
    }
  }
  return wrap(await load(flavour), flavour);
}

// The public API: plain values in and out, no views into the wasm heap.
// threadsFailed: why the threaded module did not start where it was chosen (the single one runs).
function wrap(module, flavour, threadsFailed = null) {
  let disposed = false;
  const simulators = new Set();
  const live = () => {
    if (disposed) throw new Error('smfem: the module was disposed');
    return module;
  };
  const tool = (name) => {
    const binding = live()[name];
    if (!binding)
      throw new Error(`smfem: ${name} is in the tools module: loadSmfem({ tools: true }), Node only`);
    return binding;
  };
  return {
    build: flavour,
    threadsFailed,
    version: module.version(),
    /** Validates asset bytes with the C++ reader; throws an Error naming the problem. */
    inspectAsset(bytes, sourceName = 'asset') {
      return JSON.parse(live().inspectAsset(toUint8Array(bytes), sourceNameOf('inspectAsset', sourceName)));
    },
    /** What the page draws of an asset: metadata, render surface, cubature markers (C++ reader). */
    pageAsset(bytes, sourceName = 'asset') {
      return live().pageAsset(toUint8Array(bytes), sourceNameOf('pageAsset', sourceName));
    },
    /** How many distinct threads ran `count` tasks (1 in the single-threaded build). */
    distinctWorkerThreads(count) {
      return live().distinctWorkerThreads(count);
    },
    /** The claims suite's measurements of one scene (wasm/src/smfem/claims/scene_claims.hpp). */
    evaluateClaims(bytes, { name = 'asset', quick = false } = {}) {
      return JSON.parse(tool('evaluateClaims')(toUint8Array(bytes), name, JSON.stringify({ quick })));
    },
    /**
     * Newton decrement per iteration, FEM against MFEM, at several stiffness ratios (Subspace MFEM,
     * Trusty et al. 2023, Fig. 9).
     */
    convergenceStudy(bytes, { name = 'asset', ...options }) {
      const text = tool('convergenceStudy')(toUint8Array(bytes), name, JSON.stringify(options));
      return JSON.parse(text);
    },
    /** A simulator of the scene in `bytes` (an asset); see loader.d.ts for the options. */
    createSimulator(
      bytes,
      { sourceName = 'asset', threads, parameters, localDeformations, ...unknown } = {},
    ) {
      refuseUnknownOptions('createSimulator', unknown, 'sourceName, threads, parameters, localDeformations');
      const options = { parameters: parameters ?? {} };
      if (threads !== undefined) options.threads = threads;
      if (localDeformations !== undefined) options.localDeformations = localDeformations;
      const native = new (live().Simulator)(
        toUint8Array(bytes),
        sourceNameOf('createSimulator', sourceName),
        JSON.stringify(options),
      );
      const simulator = new Simulator(native, () => simulators.delete(simulator));
      simulators.add(simulator);
      return simulator;
    },
    /**
     * A displacement basis baked into `bytes` (smfem-bake --comparison-basis: linear modes or
     * modal derivatives, Trusty et al. 2023, Fig. 5), stepped by the same FEM and MFEM steps with
     * the same parameters and step reports as createSimulator's; no drag spring.
     */
    createDisplacementSimulator(bytes, { sourceName = 'asset', threads, parameters, ...unknown } = {}) {
      refuseUnknownOptions('createDisplacementSimulator', unknown, 'sourceName, threads, parameters');
      const options = { parameters: parameters ?? {} };
      if (threads !== undefined) options.threads = threads;
      const native = new (tool('DisplacementSimulator'))(
        toUint8Array(bytes),
        sourceNameOf('createDisplacementSimulator', sourceName),
        JSON.stringify(options),
      );
      const simulator = new DisplacementSimulator(native, () => simulators.delete(simulator));
      simulators.add(simulator);
      return simulator;
    },
    /**
     * The names of the mesh files a shell's or rod's recipe names ("mesh"), for the caller to
     * read and give to createThinSimulator as `files`.
     */
    thinRecipeFiles(recipeText, { sourceName = 'recipe' } = {}) {
      return JSON.parse(live().thinRecipeFiles(recipeText, sourceNameOf('thinRecipeFiles', sourceName)));
    },
    /**
     * A shell or a rod from its recipe's JSON text (wasm/src/smfem/thin/thin_recipe.hpp), stepped
     * by the full-space mixed or FEM step with the same parameters and step reports as
     * createSimulator's, plus maxStrain; coordinatesF64() is the vertices' displacements. `files`
     * holds one {name, bytes} per name thinRecipeFiles gives.
     */
    createThinSimulator(
      recipeText,
      { sourceName = 'recipe', threads, parameters, files = [], ...unknown } = {},
    ) {
      refuseUnknownOptions('createThinSimulator', unknown, 'sourceName, threads, parameters, files');
      const options = { parameters: parameters ?? {} };
      if (threads !== undefined) options.threads = threads;
      const list = files.map(({ bytes, name }) => ({ bytes: toUint8Array(bytes), name }));
      const native = new (live().ThinSimulator)(
        recipeText,
        sourceNameOf('createThinSimulator', sourceName),
        JSON.stringify(options),
        list,
      );
      const simulator = new ThinSimulator(native, () => simulators.delete(simulator));
      simulators.add(simulator);
      return simulator;
    },
    /**
     * A scene of several bodies with contact (assets/scenes/README.md, "Scenes with contact"):
     * the scene file's text and one {bytes, name} asset per body, in the file's order.
     */
    createContactScene(sceneText, assets, { sourceName = 'scene', parameters, ...options } = {}) {
      const list = assets.map(({ bytes, name }) => ({ bytes: toUint8Array(bytes), name }));
      // threads, sleeping and any other key go to the scene, which refuses keys it does not know.
      const settings = JSON.stringify({ ...options, parameters: parameters ?? {} });
      const native = new (live().ContactScene)(
        sceneText,
        list,
        sourceNameOf('createContactScene', sourceName),
        settings,
      );
      const scene = new ContactScene(native, () => simulators.delete(scene));
      simulators.add(scene);
      return scene;
    },
    /** Ends the module's worker threads (disposing its simulators); the object is unusable afterwards. */
    dispose() {
      if (disposed) return;
      for (const simulator of [...simulators]) simulator.dispose();
      disposed = true;
      module.PThread?.terminateAllThreads();
    },
  };
}

// A key a constructor does not take: silently dropped, a misspelt `parameter:` or a `solver:`
// beside `parameters` ran the defaults. (createContactScene's keys are the scene's to refuse.)
// The name the reader's messages give the input: a string (a number reached embind as
// "Cannot pass non-string to std::string", naming neither the option nor the call).
function sourceNameOf(what, sourceName) {
  if (typeof sourceName !== 'string') {
    throw new Error(`smfem: ${what}: sourceName must be a string, not ${typeof sourceName}`);
  }
  return sourceName;
}

function refuseUnknownOptions(what, unknown, known) {
  const keys = Object.keys(unknown);
  if (keys.length === 0) return;
  throw new Error(
    `smfem: ${what}: unknown option ${keys.join(', ')} (it takes ${known}; a solver parameter such as ` +
      'iterations goes in parameters)',
  );
}

// A stepper behind the API (a simulator or a scene with contact): live until disposed, then
// every call throws.
class NativeHandle {
  #native;
  #onDispose;
  #what;

  constructor(native, onDispose, what) {
    this.#native = native;
    this.#onDispose = onDispose;
    this.#what = what;
  }

  live() {
    if (!this.#native) throw new Error(`smfem: the ${this.#what} was disposed`);
    return this.#native;
  }

  /** Sizes, threads and the current parameters (a scene: its bodies' first modes and offsets too). */
  get info() {
    return JSON.parse(this.live().info());
  }

  /** Changes some parameters; out-of-range values are clamped (see warnings()). */
  setParameters(parameters) {
    if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))
      throw new Error('smfem: setParameters takes an object of parameters, e.g. { iterations: 4 }');
    this.live().setParameters(JSON.stringify(parameters));
  }

  /** Runs `count` steps; returns one report per step run (stops after a failed step). */
  step(count = 1) {
    // A number, as given: embind made "2" two steps and null none, without a word.
    if (typeof count !== 'number')
      throw new Error(`smfem: step takes a number of steps, not ${typeof count}`);
    return JSON.parse(this.live().step(count));
  }

  /** u in double precision, a copy (a scene's bodies side by side: body i from 4 firstMode of each coordinate). */
  coordinatesF64() {
    return this.live().coordinatesF64();
  }

  dragMove([x, y, z]) {
    this.live().dragMove(x, y, z);
  }

  dragEnd() {
    this.live().dragEnd();
  }

  /** Back to the start (a simulator: rest at time 0, parameters, materials and drag spring kept). */
  reset() {
    this.live().reset();
  }

  /** Warnings since the last call (clamped parameters, retried and undone steps). */
  warnings() {
    return JSON.parse(this.live().takeWarnings());
  }

  /** Frees it (and returns its worker threads to the module). */
  dispose() {
    if (!this.#native) return;
    this.#native.delete();
    this.#native = null;
    this.#onDispose();
  }
}

// One simulator: JSON and copies across the boundary (the C++ side is wasm/bindings/bindings.cpp).
class Simulator extends NativeHandle {
  constructor(native, onDispose) {
    super(native, onDispose, 'simulator');
  }

  /** The reduced coordinates u (12m floats), a copy. */
  coordinates() {
    return this.live().coordinates();
  }

  /** Diagnostics of the current state. */
  diagnostics() {
    return JSON.parse(this.live().diagnostics());
  }

  dragStart(renderVertex, [x, y, z], stiffness) {
    this.live().dragStart(renderVertex, x, y, z, stiffness);
  }

  /**
   * The attached local patches (with createSimulator's localDeformations: the drag dents where it
   * grabs): per patch its rest centre, its turned frame (9 numbers, column-major) and its
   * coefficients (m).
   */
  localPatches() {
    return JSON.parse(this.live().localPatches());
  }

  /**
   * How far the attached patches move each render vertex now, and the gradient of that with
   * respect to the rest position (12 floats per vertex, as ContactScene.bodyDent), or null where
   * no patch is attached.
   */
  dent() {
    return this.live().dent();
  }

  /** The whole dynamic state as bytes, for restore(). */
  snapshot() {
    return this.live().snapshot();
  }

  restore(bytes) {
    this.live().restore(toUint8Array(bytes));
  }
}

// A displacement basis (wasm/bindings/displacement_binding.cpp): coordinatesF64() is q (k
// doubles); info names the basis and its sizes.
class DisplacementSimulator extends NativeHandle {
  constructor(native, onDispose) {
    super(native, onDispose, 'displacement simulator');
  }

  /** Diagnostics of the current state (summed over the whole mesh's vertices). */
  diagnostics() {
    return JSON.parse(this.live().diagnostics());
  }

  dragMove() {
    throw new Error('smfem: a displacement basis has no drag spring');
  }

  dragEnd() {
    throw new Error('smfem: a displacement basis has no drag spring');
  }
}

// A shell or a rod (wasm/bindings/thin_binding.cpp): coordinatesF64() is the vertices'
// displacements (all x, then all y, then all z).
class ThinSimulator extends NativeHandle {
  constructor(native, onDispose) {
    super(native, onDispose, 'thin simulator');
  }

  /** Diagnostics of the current state, with maxStrain. */
  diagnostics() {
    return JSON.parse(this.live().diagnostics());
  }

  /** What to draw: rest positions (x y z per vertex), the surfaces' triangles, the rods' segments and their radii. */
  restShape() {
    const native = this.live();
    return {
      positions: native.restPositions(),
      triangles: native.triangles(),
      edges: native.edges(),
      edgeRadii: native.edgeRadii(),
    };
  }

  /** A spring (N/m) from vertex `vertex` to `target`. */
  dragStart(vertex, [x, y, z], stiffness) {
    this.live().dragStart(vertex, x, y, z, stiffness);
  }

  /** Holds obstacle `index` at the offset from where the recipe puts it (it moves there as far as the body allows). */
  moveObstacle(index, [x, y, z]) {
    this.live().moveObstacle(index, x, y, z);
  }

  /** The force the body presses on each obstacle now, N ([] without obstacles). */
  obstacleForces() {
    return JSON.parse(this.live().obstacleForces());
  }
}

// A scene with contact: the same boundary as Simulator's (wasm/bindings/bindings.cpp).
class ContactScene extends NativeHandle {
  constructor(native, onDispose) {
    super(native, onDispose, 'scene');
  }

  /** After the last step: the samples closer than the activation distance to something, x y z each. */
  contactPoints() {
    return this.live().contactPoints();
  }

  /** The force the bodies press on each obstacle now, N (the contact barrier's; friction's not in it). */
  obstacleForces() {
    return JSON.parse(this.live().obstacleForces());
  }

  /**
   * How far body `body`'s local deformations move its render vertices now, and the gradient of
   * that with respect to the rest position (12 floats per vertex: x y z, then the gradient's
   * rows; the body's frame), or null where no patch is attached.
   */
  bodyDent(body) {
    return this.live().bodyDent(body);
  }

  /** Drags obstacle `index` to the offset (it moves there as far as the bodies allow). */
  moveObstacle(index, [x, y, z]) {
    this.live().moveObstacle(index, x, y, z);
  }

  /** A drag spring from render vertex `vertex` of body `body` to a point of the scene. */
  dragStart(body, vertex, [x, y, z], stiffness) {
    this.live().dragStart(body, vertex, x, y, z, stiffness);
  }
}

function toUint8Array(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new TypeError('smfem: expected a Uint8Array or ArrayBuffer');
}
