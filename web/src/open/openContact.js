// Opening a scene with contact (several bodies among obstacles, one stepper): each body asset
// fetched once, the worker builds the scene; the settings are the URL's over the stepper's.
import { fetchBytes } from '../../../wasm/js/fetchBytes.js';
import { ContactStage } from '../render/ContactStage.js';
import { localComparisonLabels, localComparisonNames } from '../state/localComparison.js';
import { solverName, solvers } from '../state/urlState.js';
import { materialControls } from './openBody.js';
import { dragStiffness } from './dragStiffness.js';

// Settings of a scene with contact (its time step and gravity are the scene file's): the URL's
// over the parameters the scene's stepper has. Side by side (compare) is its local deformations
// on and off, so only a scene whose file asks for them has it, and then they are on.
function contactSettingsFor(effective, overrides, local) {
  return {
    solver: overrides.solver ?? solverName(effective),
    iterations: overrides.iterations ?? effective.iterations,
    speed: overrides.speed ?? 1,
    contacts: overrides.contacts ?? false,
    ...local,
  };
}

// The URL's compare, globalOnly and local as this scene can take them: local=1 asks for what a
// scene whose file turns them on runs anyway, unless globalOnly turns them off.
function localChoice(overrides, localDeformations) {
  const compare = localDeformations && (overrides.compare ?? false);
  const globalOnly = !compare && (overrides.globalOnly ?? false);
  return { compare, globalOnly, local: localDeformations && !globalOnly && (overrides.local ?? false) };
}

// The scene file's text with every body's local deformations off (the page's "Local
// deformations" unticked: the global modes alone, to compare).
function withoutLocalDeformations(text) {
  const scene = JSON.parse(text);
  for (const body of scene.bodies) delete body.localDeformations;
  return JSON.stringify(scene);
}

// The parameters the URL sets for a scene with contact (the rest are the stepper's).
function contactOverrides(overrides) {
  return {
    ...(overrides.solver && solvers[overrides.solver].parameters),
    ...(overrides.iterations !== undefined && { iterations: overrides.iterations }),
  };
}

/** The parameters of each stepper of a scene with contact (side by side, two: the same). */
export function contactParameterSets(settings) {
  const parameters = { ...solvers[settings.solver].parameters, iterations: settings.iterations };
  return settings.compare ? [parameters, parameters] : [parameters];
}

/** The plots', CSV's and status's name for each stepper: its solver, side by side its basis too. */
export function contactSeriesNames(settings) {
  return settings.compare ? localComparisonNames(settings.solver) : [settings.solver];
}

// A scene of one body of several materials (a painted model dropped on the ground, the crab)
// paints them with their legend, as the body's own page does. A body of one material, and the
// bodies of a scene of several, keep their own colours (the contact points are drawn over them).
function oneBodyMaterials(loaded, info) {
  if (info.bodies.length !== 1) return {};
  const { sampledRegions, defaultYoungs, materials } = materialControls(
    loaded.pages[0].meta,
    info.bodies[0].cubatureRegions,
  );
  if (materials.length < 2) return {};
  return { sampledRegions, materials, defaults: { youngs: defaultYoungs } };
}

// What the description says the hands can do: a drag moves any body, and the spheres, boxes and
// capsules, never the planes (ObstacleMeshes.movable); said of one body as of one.
function handling(bodyCount, obstacles) {
  const [bodies, them] = bodyCount > 1 ? ['any body', 'the bodies'] : ['the body', 'the body'];
  return obstacles.some((shape) => shape.type !== 'plane')
    ? `Drag ${bodies} or the grey obstacles (with Shift, one behind a body); Drop lets ${them} fall again where the obstacles now are.`
    : `Drag ${bodies}; Drop lets ${them} fall again.`;
}

/**
 * Opens a scene with contact: every body in one stepper, among obstacles. context: { client,
 * showProgress(fraction), onObstacleMoved(index, offset) (a drag moved an obstacle there) }.
 * Returns what Demo.open shows, with the settings.
 */
export async function openContact({ client, showProgress, onObstacleMoved }, name, contact, overrides) {
  // Each asset once, however many bodies share it.
  const urls = [...new Set(contact.bodies.map((body) => String(body.url)))];
  let fetched = 0;
  const downloads = new Map(
    await Promise.all(
      urls.map(async (url) => {
        const bytes = await fetchBytes(url);
        showProgress((0.45 * ++fetched) / urls.length);
        return [url, bytes];
      }),
    ),
  );
  const localDeformations = JSON.parse(contact.text).bodies.some((body) => body.localDeformations === true);
  const asked = localChoice(overrides, localDeformations);
  const sceneTexts = asked.compare
    ? [contact.text, withoutLocalDeformations(contact.text)]
    : [asked.globalOnly ? withoutLocalDeformations(contact.text) : contact.text];
  const loaded = await client.loadContact({
    sceneTexts,
    // Each body its own copy: the copies move to the worker.
    assets: contact.bodies.map((body) => ({
      bytes: downloads.get(String(body.url)).slice(),
      name: body.name,
    })),
    sourceName: `${name}.json`,
    parameters: contactOverrides(overrides),
  });
  const [info] = loaded.info;
  const settings = contactSettingsFor(info.parameters, overrides, asked);
  const copies = sceneTexts.length;
  const stage = new ContactStage(
    info,
    loaded.pages.map((page) => page.surface),
    { copies },
  );
  const stiffness = info.bodies.map((body) => dragStiffness(body.mass));
  // A hand on any copy of the scene holds the same point of every copy: the point where the
  // grabbed copy draws it, in the scene's own coordinates.
  let grabbedCopy = 0;
  const inScene = (point) => Array(copies).fill(point.clone().add(stage.toScene(grabbedCopy)).toArray());
  return {
    settings,
    meta: null,
    loaded,
    stage,
    names: contactSeriesNames(settings),
    ...(copies > 1 && { labels: localComparisonLabels }),
    timestep: info.timestep,
    camera: null,
    description: `${contact.description} ${handling(info.bodies.length, info.obstacles)}`,
    controls: { contact: true, localDeformations, ...oneBodyMaterials(loaded, info) },
    dragActions: {
      grab: (drawnBody, vertex, point) => {
        const { copy, body } = stage.sceneBody(drawnBody);
        grabbedCopy = copy;
        return client.dragStart(body, vertex, inScene(point), stiffness[body]);
      },
      pull: (point) => client.dragMove(inScene(point)),
      release: () => client.dragEnd(),
      moveObstacle: (index, offset) => {
        onObstacleMoved(index, offset.toArray());
        return client.moveObstacle(index, offset.toArray());
      },
    },
  };
}
