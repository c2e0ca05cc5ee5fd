// The bake in WebAssembly (precompute/bindings/bake_binding.cpp): smfem-bake's own command, run
// on files handed over as bytes, with the native tool's options, messages and results. The same
// in Node and in a browser worker (the page's bake.worker.js):
//
//   import { loadBake } from './precompute/js/bake.js';
//   const baker = await loadBake();
//   const { asset, summary } = baker.bake(
//     [{ name: 'bunny.obj', bytes }],          // the input and whatever it names
//     ['bunny.obj', '--modes', '8'],           // smfem-bake's command line, without -o
//     (line) => console.log(line),             // its progress lines, as it prints them
//   );                                         // asset: Uint8Array; summary: --json's object
//   baker.dispose();
//
// A bake that smfem-bake refuses throws an Error with its message ("smfem-bake: bunny.obj:2:
// ..."). Two builds, as for the stepper (wasm/js/loader.js): threaded where the page is
// cross-origin isolated (and in Node), single-threaded elsewhere (the same bake on one thread).
// It blocks its thread, so in a browser it belongs in a worker.
import { chooseBuild, instantiate, isNode } from '../../wasm/js/instantiate.js';

// Literal URLs: Vite copies these files into a production build.
const builds = {
  threads: {
    classic: new URL('../../build/wasm-threads/module/smfem-bake.js', import.meta.url),
    esm: new URL('../../build/wasm-threads/module/smfem-bake.mjs', import.meta.url),
    wasm: new URL('../../build/wasm-threads/module/smfem-bake.wasm', import.meta.url),
    worker: new URL('../../build/wasm-threads/module/smfem-bake.worker.js', import.meta.url),
  },
  single: {
    classic: new URL('../../build/wasm-single/module/smfem-bake.js', import.meta.url),
    esm: new URL('../../build/wasm-single/module/smfem-bake.mjs', import.meta.url),
    wasm: new URL('../../build/wasm-single/module/smfem-bake.wasm', import.meta.url),
  },
};

/**
 * Loads the bake's module (built by scripts/setup.sh). build: 'auto' (threaded where it can
 * run), 'threads' or 'single'; onProgress: its download, in a browser.
 */
export async function loadBake({ build = 'auto', onProgress } = {}) {
  const flavour = build === 'auto' ? chooseBuild() : build;
  if (flavour === 'threads' && !isNode && !globalThis.crossOriginIsolated) {
    throw new Error('smfem-bake: the threaded bake needs a cross-origin isolated page (COOP/COEP headers)');
  }
  const module = await instantiate(builds[flavour], {
    label: 'smfem-bake',
    onProgress,
    buildHint: 'npm start',
  });
  return { ...wrap(module), build: flavour };
}

function wrap(module) {
  let disposed = false;
  return {
    /**
     * Bakes files (each {name, bytes: Uint8Array}) as smfem-bake would with `args`; onLine gets
     * each line it prints on stderr (its progress) as it prints it.
     * @returns {{asset: Uint8Array, summary: object, log: string, memoryBytes: number}}
     */
    bake(files, args, onLine) {
      if (disposed) throw new Error('smfem-bake: the module was disposed');
      const { status, asset, summary, log } = module.bake(files, args, onLine);
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
      module.PThread?.terminateAllThreads();
    },
  };
}
