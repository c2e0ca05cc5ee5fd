// The page's handle on the solver worker (simulation.worker.js): every method returns a
// promise of the worker's answer; a failed request rejects with the worker's message.
export class SimulationClient {
  constructor() {
    this.worker = new Worker(new URL('./simulation.worker.js', import.meta.url), { type: 'module' });
    this.pending = new Map();
    this.nextId = 1;
    this.onProgress = null;
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (event) => this.failAll(new Error(event.message || 'the solver worker failed'));
  }

  receive(data) {
    if (data.type === 'progress') {
      this.onProgress?.(data.loaded, data.total);
      return;
    }
    const waiting = this.pending.get(data.id);
    if (!waiting) return;
    this.pending.delete(data.id);
    if (data.ok) waiting.resolve(data);
    else waiting.reject(new Error(data.error));
  }

  failAll(error) {
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }

  request(type, payload = {}, transfer = []) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, type, ...payload }, transfer);
    });
  }

  /** Loads an asset (bytes are handed over to the worker). */
  load({ asset, sourceName, parameters, build = 'auto', threads }) {
    return this.request('load', { asset, sourceName, parameters, build, threads }, [asset.buffer]);
  }

  advance(steps) {
    return this.request('advance', { steps });
  }

  setParameters(parameters) {
    return this.request('setParameters', { parameters });
  }

  dragStart(vertex, target, stiffness) {
    return this.request('dragStart', { vertex, target, stiffness });
  }

  dragMove(target) {
    return this.request('dragMove', { target });
  }

  dragEnd() {
    return this.request('dragEnd');
  }

  reset() {
    return this.request('reset');
  }

  snapshot() {
    return this.request('snapshot');
  }

  restore(bytes) {
    return this.request('restore', { bytes });
  }

  async dispose() {
    await this.request('dispose').catch(() => {});
    this.worker.terminate();
  }
}
