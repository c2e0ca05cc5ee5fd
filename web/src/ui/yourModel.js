// "Your model": a file picker and drops on the canvas bring a user's mesh (or a recipe and the
// meshes it names) to the bake in the browser (bake/BakeClient.js), with a progress bar and a
// Cancel button while it bakes and a button to save the baked asset once it has.
import { download } from './download.js';

/**
 * elements: { input, canvas, progress, cancel, save }; baker: a BakeClient;
 * onBaked(asset, name): opens the baked asset; onError(error): says what went wrong.
 */
export function yourModel({ input, canvas, progress, cancel, save }, baker, { onBaked, onError }) {
  let last = null; // { asset, name } of the last bake, for Save

  async function bake(fileList) {
    const chosen = [...fileList];
    if (!chosen.length) return;
    try {
      const files = await Promise.all(
        chosen.map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })),
      );
      progress.hidden = false;
      cancel.hidden = false;
      const { asset, input: baked } = await baker.bake(files);
      const name = baked.replace(/\.[^.]*$/, '');
      last = { asset: asset.slice(), name };
      save.hidden = false;
      await onBaked(asset, name);
    } catch (error) {
      onError(error);
    } finally {
      progress.hidden = true;
      cancel.hidden = true;
      input.value = '';
    }
  }

  input.addEventListener('change', () => bake(input.files));
  cancel.addEventListener('click', () => baker.cancel());
  save.addEventListener('click', () => {
    if (last) download(new Blob([last.asset]), `${last.name}.smfem`);
  });
  canvas.addEventListener('dragover', (event) => {
    if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
  });
  canvas.addEventListener('drop', (event) => {
    event.preventDefault();
    bake(event.dataTransfer.files);
  });
  return {
    /** Shows a bake's state ({ stage, progress }) on the bar. */
    show({ progress: fraction }) {
      progress.value = fraction;
    },
  };
}
