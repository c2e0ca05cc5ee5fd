// A body on its own dropped on the ground ("Your model" with "On the ground"): a scene with
// contact of that one body over a ground plane, opened as the gallery's are (openContact.js).
import { fetchBytes } from '../../../wasm/js/fetchBytes.js';
import { openContact } from './openContact.js';

// It starts this fraction of its height above the ground, centred over the origin.
const kDropOfHeight = 0.5;

/** scene: { title, url, sourceName } of the asset (sourceName: its file, for the reader's messages). */
export async function openOnGround(context, name, { title, url, sourceName }, overrides) {
  const body = sourceName ?? 'model.smfem';
  const { min, max } = await context.client.bounds({ asset: await fetchBytes(url), sourceName: body });
  const centre = (k) => -(min[k] + max[k]) / 2;
  const description = `${title}, dropped on the ground.`;
  const scene = {
    description,
    friction: 0.5,
    obstacles: [{ type: 'plane', point: [0, 0, 0], normal: [0, 1, 0] }],
    bodies: [
      { asset: body, translation: [centre(0), kDropOfHeight * (max[1] - min[1]) - min[1], centre(2)] },
    ],
  };
  return openContact(
    context,
    name,
    { text: JSON.stringify(scene), bodies: [{ name: body, url }], description },
    overrides,
  );
}
