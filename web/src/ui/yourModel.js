// "Your model": a file picker and drops on the canvas bring a user's mesh (or a recipe and the
// meshes it names) to the bake in the browser (bake/BakeClient.js), with a progress bar and a
// Cancel button while it bakes and a button to save the baked asset once it has. Then "Bake
// again" bakes the same files with the modes, cubature tets and pins chosen beside it (first
// the bake's own choice) and every region painted since the pick (paintRegion: a sphere and a
// Young's modulus, in the model's own coordinates, those of its file; smfem-bake --paint).
import { download } from './download.js';

// "Pin the lowest points": the vertices within this fraction of the body's height above its
// lowest point (smfem-bake --pin-lowest).
const kLowest = '0.05';

/**
 * elements: { input, canvas, progress, cancel, save, options, modes, cubature, pinLowest, again };
 * baker: a BakeClient;
 * onBaked(asset, name): opens the baked asset; onError(error): says what went wrong.
 */
export function yourModel(elements, baker, { onBaked, onError }) {
  const { input, canvas, progress, cancel, save, options, modes, cubature, pinLowest, again } = elements;
  let last = null; // { asset, name } of the last bake, for Save
  let picked = null; // the files of the model picked last (copies: a bake hands its own over)
  const painted = []; // { center, radius, youngs } since it was picked

  const copies = (files) => files.map(({ name, bytes }) => ({ name, bytes: bytes.slice() }));
  // smfem-bake's options for "Bake again" (none for a fresh pick: the bake's own defaults).
  const chosenOptions = () => [
    ...['--modes', modes.value, '--cubature', cubature.value],
    ...(pinLowest.checked ? ['--pin-lowest', kLowest] : []),
    ...painted.flatMap(({ center, radius, youngs }) => ['--paint', [...center, radius, youngs].join(',')]),
  ];

  async function bake(files, extra) {
    try {
      progress.hidden = false;
      cancel.hidden = false;
      const { asset, summary, input: baked } = await baker.bake(copies(files), extra);
      const name = baked.replace(/\.[^.]*$/, '');
      last = { asset: asset.slice(), name };
      save.hidden = false;
      modes.value = summary.modes;
      cubature.value = summary.cubature;
      options.hidden = false;
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
    pinLowest.checked = false;
    again.textContent = 'Bake again';
    await bake(picked, []);
  }

  input.addEventListener('change', () => pick(input.files));
  cancel.addEventListener('click', () => baker.cancel());
  save.addEventListener('click', () => {
    if (last) download(new Blob([last.asset]), `${last.name}.smfem`);
  });
  again.addEventListener('click', () => bake(picked, chosenOptions()));
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
     * modulus `youngs` (Pa) at the next "Bake again"; returns how many regions are painted.
     */
    paintRegion(center, radius, youngs) {
      if (!picked) throw new Error('paintRegion: pick a model first (Your model)');
      const finite = [...center, radius, youngs].every(Number.isFinite);
      if (center.length !== 3 || !finite || radius <= 0 || youngs <= 0) {
        throw new Error("paintRegion: expected a centre [x, y, z], a radius > 0 and a Young's modulus > 0");
      }
      painted.push({ center: [...center], radius, youngs });
      again.textContent = `Bake again with ${painted.length} painted region${painted.length > 1 ? 's' : ''}`;
      return painted.length;
    },
  };
}
