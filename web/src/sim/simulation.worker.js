// The solver's home off the page's main thread: loads the wasm module (threaded where the page
// is cross-origin isolated; its pthread pool then hangs off this worker, so the main thread
// never blocks on a join), owns the scene's steppers and answers SimulationClient's requests.
// A load answers with what the page draws of each asset (smfem.pageAsset: the stepper's own
// reader), so the page never parses an asset.
//
// A scene runs one simulator, or several of the same asset in lockstep (MFEM and FEM side by
// side), or a lineup (one simulator per asset: the same object baked at several resolutions, in
// lockstep), or one scene with contact (several bodies, obstacles), or two such scenes in lockstep
// (a scene's local deformations on and off side by side): every request applies to all of its
// steppers, in order, with per-stepper arguments where they differ. Every request carries an
// id; every answer echoes it as { id, ok: true, ... } or { id, ok: false, error }.
import { loadSmfem } from '../../../wasm/js/loader.js';

let smfem = null;
let steppers = [];
let contacts = []; // the scenes with contact, when they are loaded (then steppers is contacts)
let dented = []; // bodies on their own: per simulator, whether it runs local deformations

function requireSteppers() {
  if (!steppers.length) throw new Error('no scene is loaded');
  return steppers;
}

function disposeSteppers() {
  for (const stepper of steppers) stepper.dispose();
  steppers = [];
  contacts = [];
  dented = [];
  thin = false;
}

async function module(build) {
  smfem ??= await loadSmfem({
    build,
    onProgress: (loaded, total) => postMessage({ type: 'progress', loaded, total }),
  });
  return smfem;
}

// What every load answers of the module: its flavour, why threads did not start (or null), version.
const moduleFacts = () => ({
  build: smfem.build,
  threadsFailed: smfem.threadsFailed,
  version: smfem.version,
});

async function moduleWithoutSteppers(build) {
  await module(build);
  disposeSteppers();
  return smfem;
}

let thin = false; // the steppers are shells or rods (their coordinates: vertex displacements)

// Reduced coordinates: a simulator's 12m floats; a contact scene's every body side by side (f64);
// a shell's or rod's vertex displacements (f64, all x, then y, then z).
const coordinates = (stepper) =>
  contacts.includes(stepper) || thin ? stepper.coordinatesF64() : stepper.coordinates();

const handlers = {
  // localDeformations: per simulator, whether it runs them (the asset must carry its tet mesh).
  async load({ build, asset, sourceName, parameterSets, threads, localDeformations = [] }) {
    await moduleWithoutSteppers(build);
    // Side by side, the simulators share the pool: one thread each. Alone, the build's default.
    const share = threads ?? (parameterSets.length > 1 ? 1 : undefined);
    steppers = parameterSets.map((parameters, i) =>
      smfem.createSimulator(asset, {
        sourceName,
        parameters,
        threads: share,
        localDeformations: localDeformations[i] ?? false,
      }),
    );
    dented = localDeformations.some(Boolean) ? steppers.map((s, i) => localDeformations[i] ?? false) : [];
    return {
      ...moduleFacts(),
      info: steppers.map((s) => s.info),
      u: steppers.map(coordinates),
      page: smfem.pageAsset(asset, sourceName),
      ...views(),
    };
  },

  // A lineup: one simulator per asset ({ bytes, name }), all under the same parameters, one
  // thread each (they share the pool).
  async loadLineup({ build, assets, parameters }) {
    await moduleWithoutSteppers(build);
    steppers = assets.map(({ bytes, name }) =>
      smfem.createSimulator(bytes, { sourceName: name, parameters, threads: 1 }),
    );
    return {
      ...moduleFacts(),
      info: steppers.map((s) => s.info),
      u: steppers.map(coordinates),
      pages: assets.map(({ bytes, name }) => smfem.pageAsset(bytes, name)),
    };
  },

  // Scenes with contact of the same bodies, one per scene file's text (two side by side), and
  // one asset per body ({ bytes, name }).
  async loadContact({ build, sceneTexts, assets, sourceName, parameters }) {
    await moduleWithoutSteppers(build);
    contacts = sceneTexts.map((text) => smfem.createContactScene(text, assets, { sourceName, parameters }));
    steppers = contacts;
    return {
      ...moduleFacts(),
      info: contacts.map((c) => c.info),
      pages: assets.map(({ bytes, name }) => smfem.pageAsset(bytes, name)),
      u: steppers.map(coordinates),
      ...views(),
    };
  },

  // A shell or a rod from its recipe's text, one simulator per parameter set (side by side: one
  // thread each, as bodies do); the mesh files it names are fetched from meshUrls (by name).
  async loadThin({ build, recipeText, sourceName, meshUrls = {}, parameterSets }) {
    await moduleWithoutSteppers(build);
    const files = [];
    for (const name of smfem.thinRecipeFiles(recipeText, { sourceName })) {
      if (!meshUrls[name]) throw new Error(`${sourceName}: the mesh "${name}" is not shipped with the page`);
      const response = await fetch(meshUrls[name]);
      if (!response.ok)
        throw new Error(`${sourceName}: the mesh "${name}" did not load (${response.status})`);
      files.push({ name, bytes: new Uint8Array(await response.arrayBuffer()) });
    }
    const threads = parameterSets.length > 1 ? 1 : undefined;
    steppers = parameterSets.map((parameters) =>
      smfem.createThinSimulator(recipeText, { sourceName, parameters, threads, files }),
    );
    thin = true;
    return {
      ...moduleFacts(),
      info: steppers.map((s) => s.info),
      u: steppers.map(coordinates),
      shape: steppers[0].restShape(),
    };
  },

  // The box of an asset's rest shape, { min, max } (m): where "On the ground" places it.
  async bounds({ build, asset, sourceName }) {
    const { positions } = (await module(build)).pageAsset(asset, sourceName).surface;
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    positions.forEach((x, k) => {
      min[k % 3] = Math.min(min[k % 3], x);
      max[k % 3] = Math.max(max[k % 3], x);
    });
    return { min, max };
  },

  // Steps every stepper; answers every step's report, per stepper, and the seconds the batch took
  // here (the steps and what is drawn of them: the page's clock is fed this, not the round trip,
  // whose wait for the page's own thread is no cost of a step).
  advance({ steps }) {
    const started = performance.now();
    const reports = requireSteppers().map((s) => s.step(steps));
    return {
      reports,
      u: steppers.map(coordinates),
      warnings: steppers.flatMap((s) => s.warnings()),
      ...views(),
      seconds: (performance.now() - started) / 1000,
    };
  },

  setParameters({ parameterSets }) {
    requireSteppers().forEach((s, i) => s.setParameters(parameterSets[i]));
    return { warnings: steppers.flatMap((s) => s.warnings()) };
  },

  // A spring from a render vertex of `body` (a contact scene's; 0 otherwise) to one target per
  // stepper; in a lineup each stepper's own vertex (`vertices`), as its surface is its own.
  dragStart({ body, vertex, vertices, targets, stiffness }) {
    requireSteppers().forEach((s, i) =>
      contacts.includes(s)
        ? s.dragStart(body, vertex, targets[i], stiffness)
        : s.dragStart(vertices?.[i] ?? vertex, targets[i], stiffness),
    );
    return {};
  },
  dragMove({ targets }) {
    requireSteppers().forEach((s, i) => s.dragMove(targets[i]));
    return {};
  },
  dragEnd() {
    requireSteppers().forEach((s) => s.dragEnd());
    return {};
  },

  // In every copy alike: a scene with contact's, or a shell's or rod's simulators side by side.
  moveObstacle({ index, offset }) {
    const moved = thin ? steppers : contacts;
    if (!moved.length) throw new Error('the scene has no obstacles');
    for (const stepper of moved) stepper.moveObstacle(index, offset);
    return {};
  },

  reset() {
    requireSteppers().forEach((s) => s.reset());
    return {
      u: steppers.map(coordinates),
      ...views(),
    };
  },

  dispose() {
    disposeSteppers();
    smfem?.dispose();
    smfem = null;
    return {};
  },
};

// What the page draws beside the coordinates: of each scene with contact its contact points, and
// per body how far its local deformations move its render vertices; of bodies on their own that
// run them, each simulator's (null: none attached, or not asked of it).
function views() {
  if (dented.length) return { dents: steppers.map((s, i) => (dented[i] ? s.dent() : null)) };
  if (!contacts.length) return {};
  return {
    contactPoints: contacts.map((c) => c.contactPoints()),
    dents: contacts.map((c) =>
      c.info.bodies.map((body, b) => (body.localDeformations ? c.bodyDent(b) : null)),
    ),
  };
}

// Typed arrays anywhere in an answer move to the page instead of being copied (each buffer once:
// several views may share one).
function transferables(value, found = new Set()) {
  if (ArrayBuffer.isView(value)) found.add(value.buffer);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) transferables(v, found);
  return [...found];
}

// One request at a time, in arrival order (a step must not interleave with a reset).
let queue = Promise.resolve();
self.onmessage = ({ data }) => {
  const { id, type, ...request } = data;
  queue = queue.then(async () => {
    try {
      const handler = handlers[type];
      if (!handler) throw new Error(`unknown request '${type}'`);
      const answer = await handler(request);
      postMessage({ id, ok: true, ...answer }, transferables(answer));
    } catch (error) {
      postMessage({ id, ok: false, error: String(error?.message ?? error) });
    }
  });
};
