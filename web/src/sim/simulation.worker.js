// The solver's home off the page's main thread: loads the wasm module (threaded where the page
// is cross-origin isolated; its pthread pool then hangs off this worker, so the main thread
// never blocks on a join), owns the scene's simulators and answers SimulationClient's requests.
//
// A scene runs one simulator, or several of the same asset in lockstep (MFEM and FEM side by
// side): every request applies to all of them, in order, with per-simulator arguments where
// they differ. Every request carries an id; every answer echoes it as { id, ok: true, ... } or
// { id, ok: false, error }.
import { loadSmfem } from '../../../wasm/js/loader.js';

let smfem = null;
let simulators = [];

function requireSimulators() {
  if (!simulators.length) throw new Error('no scene is loaded');
  return simulators;
}

function disposeSimulators() {
  for (const simulator of simulators) simulator.dispose();
  simulators = [];
}

const handlers = {
  async load({ build, asset, sourceName, parameterSets, threads }) {
    smfem ??= await loadSmfem({
      build,
      onProgress: (loaded, total) => postMessage({ type: 'progress', loaded, total }),
    });
    disposeSimulators();
    // Side by side, the simulators share the pool: one thread each. Alone, the build's default.
    const share = threads ?? (parameterSets.length > 1 ? 1 : undefined);
    simulators = parameterSets.map((parameters) =>
      smfem.createSimulator(asset, { sourceName, parameters, threads: share }),
    );
    return {
      build: smfem.build,
      version: smfem.version,
      info: simulators.map((s) => s.info),
      u: simulators.map((s) => s.coordinates()),
    };
  },

  // Steps every simulator; answers every step's report, per simulator.
  advance({ steps }) {
    const reports = requireSimulators().map((s) => s.step(steps));
    return {
      reports,
      u: simulators.map((s) => s.coordinates()),
      warnings: simulators.flatMap((s) => s.warnings()),
    };
  },

  setParameters({ parameterSets }) {
    requireSimulators().forEach((s, i) => s.setParameters(parameterSets[i]));
    return { warnings: simulators.flatMap((s) => s.warnings()) };
  },

  dragStart({ vertex, targets, stiffness }) {
    requireSimulators().forEach((s, i) => s.dragStart(vertex, targets[i], stiffness));
    return {};
  },
  dragMove({ targets }) {
    requireSimulators().forEach((s, i) => s.dragMove(targets[i]));
    return {};
  },
  dragEnd() {
    requireSimulators().forEach((s) => s.dragEnd());
    return {};
  },

  reset() {
    requireSimulators().forEach((s) => s.reset());
    return { u: simulators.map((s) => s.coordinates()) };
  },

  dispose() {
    disposeSimulators();
    smfem?.dispose();
    smfem = null;
    return {};
  },
};

// Typed arrays in an answer (also inside arrays) move to the page instead of being copied.
function transferables(answer) {
  return Object.values(answer)
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter((value) => ArrayBuffer.isView(value))
    .map((value) => value.buffer);
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
