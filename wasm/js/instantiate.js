// Instantiating an Emscripten module of this project (the stepper's, wasm/js/loader.js; the
// bake's, precompute/js/bake.js) in Node or in a browser, from the files of one build:
// { classic (the CommonJS factory), esm (the same as an ES module), wasm, worker (threaded
// builds) }, each a URL.

import { fetchBytes } from './fetchBytes.js';

export const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

/** The build this environment can run: 'threads' where shared memory is allowed, else 'single'. */
export function chooseBuild() {
  if (isNode) return 'threads';
  const isolated = globalThis.crossOriginIsolated === true;
  return isolated && typeof SharedArrayBuffer === 'function' ? 'threads' : 'single';
}

/**
 * The module of `urls`. label: the module's name in messages ("smfem"); onProgress(loaded,
 * total): the download, in a browser (its last report says the download is whole: what follows
 * is compilation); renameInNode(path): the file Node reads instead of each file's own (the
 * tools module beside the page's); buildHint: the command that builds the files.
 */
export async function instantiate(urls, { label, onProgress, renameInNode = (path) => path, buildHint }) {
  return isNode
    ? instantiateInNode(urls, label, renameInNode, buildHint)
    : instantiateInBrowser(urls, onProgress);
}

async function instantiateInNode(urls, label, renameInNode, buildHint) {
  const [{ readFile }, { createRequire }, { fileURLToPath }] = await Promise.all([
    import('node:fs/promises'),
    import('node:module'),
    import('node:url'),
  ]);
  const paths = Object.fromEntries(Object.entries(urls).map(([k, u]) => [k, renameInNode(fileURLToPath(u))]));
  const wasmBinary = await readFile(paths.wasm).catch((e) => {
    throw new Error(`${label}: cannot read ${paths.wasm} (${e.code}); build it first (${buildHint} does)`);
  });
  const factory = createRequire(import.meta.url)(paths.classic);
  const module = await factory({
    wasmBinary,
    locateFile: (name) => (name.endsWith('.worker.js') ? paths.worker : name),
    mainScriptUrlOrBlob: paths.classic,
  });
  unrefWorkers(module);
  return module;
}

// Node: a pthread worker must not keep the process alive once the caller is done.
function unrefWorkers(module) {
  const pthreads = module.PThread;
  if (!pthreads) return;
  for (const worker of [...pthreads.unusedWorkers, ...pthreads.runningWorkers]) worker.unref?.();
  const allocate = pthreads.allocateUnusedWorker.bind(pthreads);
  pthreads.allocateUnusedWorker = () => {
    allocate();
    pthreads.unusedWorkers.at(-1)?.unref?.();
  };
}

async function instantiateInBrowser(urls, onProgress) {
  const [wasmBinary, { default: factory }] = await Promise.all([
    fetchBytes(urls.wasm, onProgress).then((bytes) => {
      onProgress?.(bytes.length, bytes.length);
      return bytes;
    }),
    import(/* @vite-ignore */ urls.esm.href),
  ]);
  return factory({
    wasmBinary,
    locateFile: (name) => (name.endsWith('.worker.js') ? urls.worker?.href : name),
    mainScriptUrlOrBlob: urls.classic.href,
  });
}
