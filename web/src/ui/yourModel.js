// "Your model": a file picker and drops on the canvas bring a user's mesh (or a recipe and the
// meshes it names) to the bake in the browser (bake/BakeClient.js), with a progress bar and a
// Cancel button while it bakes and a button to save the baked asset once it has. Regions
// painted on it (paintRegion: a sphere and a Young's modulus, in the model's own coordinates,
// those of its file) are baked in by "Bake with painting" (smfem-bake --paint).
import { download } from './download.js';

/**
 * elements: { input, canvas, progress, cancel, save, repaint }; baker: a BakeClient;
 * onBaked(asset, name): opens the baked asset; onError(error): says what went wrong.
 */
export function yourModel({ input, canvas, progress, cancel, save, repaint }, baker, { onBaked, onError }) {
  let last = null; // { asset, name } of the last bake, for Save
  let picked = null; // the files of the model picked last (copies: a bake hands its own over)
  const painted = []; // { center, radius, youngs } since it was picked

  const copies = (files) => files.map(({ name, bytes }) => ({ name, bytes: bytes.slice() }));
  const paintOptions = () =>
    painted.flatMap(({ center, radius, youngs }) => ['--paint', [...center, radius, youngs].join(',')]);

  async function bake(files) {
    try {
      progress.hidden = false;
      cancel.hidden = false;
      const { asset, input: baked } = await baker.bake(copies(files), paintOptions());
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

  async function pick(fileList) {
    const chosen = [...fileList];
    if (!chosen.length) return;
    picked = await Promise.all(
      chosen.map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })),
    );
    painted.length = 0;
    repaint.hidden = true;
    await bake(picked);
  }

  input.addEventListener('change', () => pick(input.files));
  cancel.addEventListener('click', () => baker.cancel());
  save.addEventListener('click', () => {
    if (last) download(new Blob([last.asset]), `${last.name}.smfem`);
  });
  repaint.addEventListener('click', () => bake(picked));
  canvas.addEventListener('dragover', (event) => {
    if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
  });
  canvas.addEventListener('drop', (event) => {
    event.preventDefault();
    pick(event.dataTransfer.files);
  });
  return {
    /** Shows a bake's state ({ stage, progress }) on the bar. */
    show({ progress: fraction }) {
      progress.value = fraction;
    },
    /**
     * Paints the model's tets within `radius` of `center` (its own coordinates) with Young's
     * modulus `youngs` (Pa) at the next "Bake with painting"; returns how many regions are painted.
     */
    paintRegion(center, radius, youngs) {
      if (!picked) throw new Error('paintRegion: pick a model first (Your model)');
      const finite = [...center, radius, youngs].every(Number.isFinite);
      if (center.length !== 3 || !finite || radius <= 0 || youngs <= 0) {
        throw new Error("paintRegion: expected a centre [x, y, z], a radius > 0 and a Young's modulus > 0");
      }
      painted.push({ center: [...center], radius, youngs });
      repaint.textContent = `Bake with painting (${painted.length})`;
      repaint.hidden = false;
      return painted.length;
    },
  };
}
