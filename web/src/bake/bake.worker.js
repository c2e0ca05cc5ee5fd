// The bake's home off the page's main thread (it blocks the thread it runs on for seconds): loads
// the bake's wasm module once (precompute/js/bake.js) and bakes what BakeClient sends, posting
// smfem-bake's progress lines as it prints them. Cancelling a bake ends this worker.
//   in:  { files: [{ name, bytes }], args }      (args: smfem-bake's command line without -o)
//   out: { type: 'line', line } ... then { type: 'done', asset, summary } or { type: 'error', error }
import { loadBake } from '../../../precompute/js/bake.js';

let baker = null;

onmessage = async ({ data }) => {
  try {
    baker ??= await loadBake();
    const { asset, summary } = baker.bake(data.files, data.args, (line) =>
      postMessage({ type: 'line', line }),
    );
    postMessage({ type: 'done', asset, summary }, [asset.buffer]);
  } catch (error) {
    postMessage({ type: 'error', error: String(error?.message ?? error) });
  }
};
