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

  /**
   * Loads an asset as one simulator per parameter set, stepped in lockstep (the bytes are
   * handed over to the worker); localDeformations: per simulator, whether it runs them.
   */
  load({ asset, sourceName, parameterSets, build = 'auto', threads, localDeformations }) {
    return this.request('load', { asset, sourceName, parameterSets, build, threads, localDeformations }, [
      asset.buffer,
    ]);
  }

  /**
   * Loads a lineup: one simulator per asset, { bytes, name }, under the same parameters, stepped
   * in lockstep (the bytes are handed over to the worker; bodies may share an asset's bytes,
   * which move once).
   */
  loadLineup({ assets, parameters = {}, build = 'auto' }) {
    return this.request('loadLineup', { assets, parameters, build }, [
      ...new Set(assets.map(({ bytes }) => bytes.buffer)),
    ]);
  }

  /**
   * Loads scenes with contact of the same bodies in lockstep: each scene file's text (two: side
   * by side) and one asset per body, { bytes, name } (the bytes are handed over to the worker).
   */
  loadContact({ sceneTexts, assets, sourceName, parameters, build = 'auto' }) {
    return this.request(
      'loadContact',
      { sceneTexts, assets, sourceName, parameters, build },
      assets.map(({ bytes }) => bytes.buffer),
    );
  }

  /** Loads a shell or a rod from its recipe's text, one simulator per parameter set. */
  loadThin({ recipeText, sourceName, meshUrls, parameterSets, build = 'auto' }) {
    return this.request('loadThin', { recipeText, sourceName, meshUrls, parameterSets, build });
  }

  /** The box of an asset's rest shape, { min, max } (m); the bytes are handed over. */
  bounds({ asset, sourceName, build = 'auto' }) {
    return this.request('bounds', { asset, sourceName, build }, [asset.buffer]);
  }

  advance(steps) {
    return this.request('advance', { steps });
  }

  setParameters(parameterSets) {
    return this.request('setParameters', { parameterSets });
  }

  /**
   * A spring from render vertex `vertex` of body `body` (0 but in a contact scene); targets: one
   * point per simulator; vertices: in a lineup, each simulator's own vertex (over `vertex`).
   */
  dragStart(body, vertex, targets, stiffness, vertices) {
    return this.request('dragStart', { body, vertex, vertices, targets, stiffness });
  }

  dragMove(targets) {
    return this.request('dragMove', { targets });
  }

  dragEnd() {
    return this.request('dragEnd');
  }

  /** Drags obstacle `index` of a contact scene to the offset (it moves there as far as the bodies allow). */
  moveObstacle(index, offset) {
    return this.request('moveObstacle', { index, offset });
  }

  reset() {
    return this.request('reset');
  }

  async dispose() {
    await this.request('dispose').catch(() => {});
    this.worker.terminate();
  }
}
