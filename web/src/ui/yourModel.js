// "Your model": a file picker and drops on the canvas bring a user's mesh (or a recipe and the
// meshes it names, or a glTF scene) to the bake in the browser (bake/BakeClient.js), with a bar
// per stage and a Cancel button while it bakes, and buttons to save the baked asset and the
// recipe that bakes it again (smfem-bake --json's recipe) once it has. Then "Bake again" bakes
// the same files with the modes, cubature tets and pins chosen beside it (first the bake's own
// choice) and the brush's regions (ui/modelBrush.js).
import { limits } from '../state/urlState.js';
import { download } from './download.js';
import { bakeStages } from './bakeStages.js';
import { modelBrush } from './modelBrush.js';

// "Pin the lowest points": the vertices within this fraction of the body's height above its
// lowest point (smfem-bake --pin-lowest).
const kLowest = '0.05';

/**
 * elements: { input, canvas, stages, cancel, save, saveRecipe, options, modes, cubature,
 * units, unitsLabel, pinLowest, brush, radius, youngs, clear, again };
 * baker: a BakeClient;
 * onBaked(asset, name): opens the baked asset; onError(error): says what went wrong;
 * onWarning(text): says what the bake warns of (it baked);
 * onTool(tool) and onRegions(painted, pinned): as modelBrush's.
 */
export function yourModel(elements, baker, { onBaked, onError, onWarning, onTool, onRegions }) {
  const {
    input,
    canvas,
    stages,
    cancel,
    save,
    saveRecipe,
    options,
    modes,
    cubature,
    units,
    unitsLabel,
    pinLowest,
    again,
  } = elements;
  for (const [field, range] of [
    [modes, limits.modes],
    [cubature, limits.cubature],
  ]) {
    field.min = String(range.min);
    field.max = String(range.max);
  }
  let last = null; // { asset, recipe, name } of the last bake, for Save and Save recipe
  let picked = null; // the files of the model last baked from a pick (copies: a bake hands its own over)
  const showStages = bakeStages(stages);
  const brush = modelBrush(elements, {
    onChange(painted, pinned) {
      const regions = brush.summary();
      again.textContent = regions ? `Bake again with ${regions}` : 'Bake again';
      onRegions(painted, pinned);
    },
    onTool,
  });

  const copies = (files) => files.map(({ name, bytes }) => ({ name, bytes: bytes.slice() }));
  // Until the user sets the cubature, it follows the modes as the bake chooses it (the recipe's,
  // or 20 m).
  let cubatureChosen = false;
  cubature.addEventListener('input', () => (cubatureChosen = true));
  modes.addEventListener('input', () => {
    if (!cubatureChosen) cubature.value = '';
  });
  // The Units of the model shown (its last bake's): the brush's regions are in its coordinates.
  let bakedScale = 1;
  // smfem-bake's options for "Bake again" (none for a fresh pick: the bake's own defaults); the
  // brush's regions go to the Units chosen with the model.
  const chosenOptions = () => [
    ...(modes.value !== '' ? ['--modes', modes.value] : []),
    ...(cubature.value !== '' ? ['--cubature', cubature.value] : []),
    ...(pinLowest.checked ? ['--pin-lowest', kLowest] : []),
    ...(units.value !== '1' ? ['--scale', units.value] : []),
    ...brush.options(Number(units.value) / bakedScale),
  ];

  let latest = 0; // the latest bake's number: a bake it replaced leaves the page alone

  // A new pick becomes the model "Bake again" and the brush work on, its options shown empty
  // (the bake's own choices) until a bake fills them.
  function adopt(files) {
    picked = files;
    pinLowest.checked = false;
    units.value = '1';
    bakedScale = 1;
    brush.forget();
    modes.value = '';
    cubature.value = '';
    cubatureChosen = false;
    options.hidden = false;
  }

  // Bakes `files` with `extra` options; `fresh`: a new pick, which becomes the model once it has
  // baked, or failed to (its error can then be acted on: fewer modes, other pins); `scale`: the
  // Units they bake in.
  async function bake(files, extra, fresh, scale = 1) {
    const number = ++latest;
    stages.hidden = false;
    cancel.hidden = false;
    try {
      const { asset, summary, input: baked } = await baker.bake(copies(files), extra);
      if (fresh) {
        adopt(files);
      } else {
        brush.scaled(scale / bakedScale); // the regions follow the model to its new size
        bakedScale = scale;
      }
      const name = baked.replace(/\.[^.]*$/, '');
      // A recipe names its mesh by file name: saved beside it, the native tool bakes it again;
      // none for a glTF scene, whose file baked is the page's STL of it.
      const recipe = files.some((file) => file.name === baked)
        ? { text: summary.recipe, why: summary.recipe_unavailable }
        : {
            why: "a glTF scene is baked from the page's STL of its triangles, which the native tool does not read",
          };
      last = { asset: asset.slice(), recipe, name };
      // Named: after a pick that fails, Save still saves the model shown, not the file picked.
      save.textContent = `Save ${name}.smfem`;
      saveRecipe.textContent = `Save recipe ${name}.json`;
      save.hidden = false;
      saveRecipe.hidden = false;
      modes.value = summary.modes;
      cubature.value = summary.cubature;
      cubatureChosen = false;
      // A recipe scales its meshes with a transform (the bake refuses --scale for one).
      unitsLabel.hidden = /\.json$/i.test(baked);
      options.hidden = false;
      await onBaked(asset, name);
      if (number !== latest) return; // a newer bake speaks for the model now
      for (const warning of summary.warnings ?? []) {
        // The bake names its own option; here the field beside Bake again sets it.
        const units = warning.includes('--scale') && !unitsLabel.hidden;
        onWarning(units ? `${warning}. Here: set Units, then Bake again.` : warning);
      }
    } catch (error) {
      if (number !== latest) return;
      onError(error);
      if (fresh && !error.cancelled) adopt(files);
    } finally {
      if (number === latest) {
        stages.hidden = true;
        cancel.hidden = true;
        input.value = '';
      }
    }
  }

  async function pick(fileList) {
    const chosen = [...fileList];
    if (!chosen.length) return;
    const files = await Promise.all(
      chosen.map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })),
    );
    await bake(files, [], true);
  }

  input.addEventListener('change', () => pick(input.files));
  cancel.addEventListener('click', () => baker.cancel());
  save.addEventListener('click', () => {
    if (last) download(new Blob([last.asset]), `${last.name}.smfem`);
  });
  saveRecipe.addEventListener('click', () => {
    const { text, why } = last.recipe;
    if (!text) {
      onError(new Error(`No recipe for ${last.name}: ${why}.`));
      return;
    }
    download(
      new Blob([`${JSON.stringify(text, null, 2)}\n`], { type: 'application/json' }),
      `${last.name}.json`,
    );
  });
  again.addEventListener('click', () => {
    // Out of the fields' ranges (the bake's own, set above), said in the panel's words, not the
    // bake's option names.
    for (const [field, label] of [
      [modes, 'Modes'],
      [cubature, 'Cubature'],
    ]) {
      if (field.checkValidity()) continue;
      onError(
        new Error(
          `${label}: a whole number from ${field.min} to ${field.max}, not ${field.value || 'that'}.`,
        ),
      );
      return;
    }
    bake(picked, chosenOptions(), false, Number(units.value));
  });
  canvas.addEventListener('dragover', (event) => {
    if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
  });
  canvas.addEventListener('drop', (event) => {
    event.preventDefault();
    pick(event.dataTransfer.files);
  });
  return {
    /** Shows a bake's state ({ stage }) on the bars. */
    show: showStages,
    /** The model opened is `size` across (m): sizes the brush. */
    opened: (size) => brush.sized(size),
    /** A click with the brush on the model's rest position `center`. */
    brushAt: (center) => brush.at(center),
    /** The brush back to dragging (the model is about to move). */
    stopBrushing: () => brush.drag(),
    /**
     * Paints the model's tets within `radius` of `center` (its own coordinates) with Young's
     * modulus `youngs` (Pa) at the next "Bake again"; returns how many regions are painted.
     */
    paintRegion(center, radius, youngs) {
      if (!picked) throw new Error('paintRegion: pick a model first (Your model)');
      return brush.paint(center, radius, youngs);
    },
    /** Pins the model's vertices within `radius` of `center` at the next "Bake again". */
    pinRegion(center, radius) {
      if (!picked) throw new Error('pinRegion: pick a model first (Your model)');
      return brush.pin(center, radius);
    },
  };
}
