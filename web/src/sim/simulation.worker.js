// The solver's home off the page's main thread: loads the wasm module (threaded where the page
// is cross-origin isolated; its pthread pool then hangs off this worker, so the main thread
// never blocks on a join), owns one simulator and answers SimulationClient's requests.
//
// Every request carries an id; every answer echoes it as { id, ok: true, ... } or
// { id, ok: false, error }.
import { loadSmfem } from '../../../wasm/js/loader.js';

let smfem = null;
let simulator = null;

function requireSimulator() {
  if (!simulator) throw new Error('no scene is loaded');
  return simulator;
}

// The last report of a batch of steps, and the batch's step times (for a median upstream).
function summarize(reports) {
  const last = reports.at(-1) ?? null;
  return { report: last, stepMs: reports.map((r) => r.stepMs) };
}

const handlers = {
  async load({ build, asset, sourceName, parameters, threads }) {
    smfem ??= await loadSmfem({
      build,
      onProgress: (loaded, total) => postMessage({ type: 'progress', loaded, total }),
    });
    simulator?.dispose();
    simulator = null;
    simulator = smfem.createSimulator(asset, { sourceName, parameters, threads });
    return { build: smfem.build, version: smfem.version, info: simulator.info, u: simulator.coordinates() };
  },

  advance({ steps }) {
    const sim = requireSimulator();
    const reports = sim.step(steps);
    return { ...summarize(reports), u: sim.coordinates(), warnings: sim.warnings() };
  },

  setParameters({ parameters }) {
    const sim = requireSimulator();
    sim.setParameters(parameters);
    return { info: sim.info, warnings: sim.warnings() };
  },

  dragStart({ vertex, target, stiffness }) {
    requireSimulator().dragStart(vertex, target, stiffness);
    return {};
  },
  dragMove({ target }) {
    requireSimulator().dragMove(target);
    return {};
  },
  dragEnd() {
    requireSimulator().dragEnd();
    return {};
  },

  reset() {
    const sim = requireSimulator();
    sim.reset();
    return { u: sim.coordinates() };
  },
  snapshot() {
    return { bytes: requireSimulator().snapshot() };
  },
  restore({ bytes }) {
    const sim = requireSimulator();
    sim.restore(bytes);
    return { u: sim.coordinates() };
  },

  dispose() {
    smfem?.dispose();
    smfem = null;
    simulator = null;
    return {};
  },
};

// Typed arrays in an answer move to the page instead of being copied.
function transferables(answer) {
  return Object.values(answer)
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
