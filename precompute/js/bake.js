// The bake in WebAssembly (precompute/bindings/bake_binding.cpp): smfem-bake's own command, run
// on files handed over as bytes, with the native tool's options, messages and results.
//
//   import { loadBake } from './precompute/js/bake.js';
//   const baker = await loadBake();
//   const { asset, summary } = baker.bake(
//     [{ name: 'bunny.obj', bytes }],          // the input and whatever it names
//     ['bunny.obj', '--modes', '8'],           // smfem-bake's command line, without -o
//   );                                         // asset: Uint8Array; summary: --json's object
//   baker.dispose();
//
// A bake that smfem-bake refuses throws an Error with its message ("smfem-bake: bunny.obj:2:
// ..."). Only the threaded build exists (the bake runs its stages on threads). Runs under Node
// for now; the page's worker is the next step.

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';
const folder = new URL('../../build/wasm-threads/module/', import.meta.url);

/** Loads the bake's module (built by `bash scripts/setup.sh --all`). */
export async function loadBake() {
  if (!isNode) throw new Error('smfem-bake: the browser bake is not built yet; run it under Node');
  const [{ readFile }, { createRequire }, { fileURLToPath }] = await Promise.all([
    import('node:fs/promises'),
    import('node:module'),
    import('node:url'),
  ]);
  const path = (name) => fileURLToPath(new URL(name, folder));
  const wasmBinary = await readFile(path('smfem-bake.wasm')).catch((e) => {
    throw new Error(
      `smfem-bake: cannot read ${path('smfem-bake.wasm')} (${e.code}); build it first (bash scripts/setup.sh --all)`,
    );
  });
  const factory = createRequire(import.meta.url)(path('smfem-bake.js'));
  const module = await factory({
    wasmBinary,
    locateFile: (name) => path(name),
    mainScriptUrlOrBlob: path('smfem-bake.js'),
  });
  // Node: the pthread workers must not keep the process alive once the caller is done.
  for (const worker of [...module.PThread.unusedWorkers, ...module.PThread.runningWorkers]) worker.unref();
  return wrap(module);
}

function wrap(module) {
  let disposed = false;
  return {
    /**
     * Bakes files (each {name, bytes: Uint8Array}) as smfem-bake would with `args`.
     * @returns {{asset: Uint8Array, summary: object, log: string, memoryBytes: number}}
     */
    bake(files, args) {
      if (disposed) throw new Error('smfem-bake: the module was disposed');
      const { status, asset, summary, log } = module.bake(files, args);
      if (status !== 0) {
        const message = log
          .split('\n')
          .filter((line) => line.startsWith('smfem-bake: '))
          .join('\n');
        throw new Error(message || `smfem-bake: failed (status ${status})`);
      }
      // The module's heap only grows: its size after a bake is the bake's peak or more.
      return { asset, summary: JSON.parse(summary), log, memoryBytes: module.HEAP8.buffer.byteLength };
    },
    dispose() {
      disposed = true;
      module.PThread.terminateAllThreads();
    },
  };
}
