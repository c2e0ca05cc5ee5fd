// The bake's home off the page's main thread (it blocks the thread it runs on for seconds): loads
// the bake's wasm module once (precompute/js/bake.js) and bakes what BakeClient sends, posting
// smfem-bake's progress lines as it prints them. A glTF scene is read here too, into an STL of its
// triangles (gltfSurface.js, fetched only for one). Cancelling a bake ends this worker.
//   in:  { files: [{ name, bytes }], args, gltf } (args: smfem-bake's command line without -o,
//        its input first; gltf: the name of a glTF scene among the files, read into that input)
//   out: { type: 'line', line } ... then { type: 'done', asset, summary, build } or
//        { type: 'error', error } (build: the module's, 'threads' or 'single', precompute/js/bake.js)
import { loadBake } from '../../../precompute/js/bake.js';

let baker = null;

onmessage = async ({ data }) => {
  try {
    let files = data.files;
    if (data.gltf) {
      const { gltfAsStl } = await import('./gltfSurface.js');
      files = [
        await gltfAsStl(
          files.find(({ name }) => name === data.gltf),
          files,
          data.args[0],
        ),
      ];
    }
    baker ??= await loadBake();
    const { asset, summary } = baker.bake(files, data.args, (line) => postMessage({ type: 'line', line }));
    postMessage({ type: 'done', asset, summary, build: baker.build }, [asset.buffer]);
  } catch (error) {
    postMessage({ type: 'error', error: String(error?.message ?? error) });
  }
};
