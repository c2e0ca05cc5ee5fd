// Opening a lineup: several bodies, one simulator each, stepped in lockstep and drawn side by
// side. Either the same object baked at several resolutions under the same settings (EigenFit's
// page scene: with the fit the bodies swing together, without it each at its own mesh's
// frequencies), or one asset under a different material model each (body.parameters; Subspace
// MFEM, Trusty et al. 2023, Fig. 15: the same mesh, subspace and loads, only the model differs).
import { Vector3 } from 'three';
import { fetchBytes } from '../../../wasm/js/fetchBytes.js';
import { SideBySideStage } from '../render/SideBySideStage.js';
import { materialModelLabels } from '../../../wasm/js/material_models.js';
import { solverName } from '../state/urlState.js';
import { dragStiffness } from './dragStiffness.js';
import { bodyControls, boundMode, parameterSets, settingsFor } from './openBody.js';

const tetCount = (page) => page.meta.mesh.tets.toLocaleString('en-US');

// The material model a body of a lineup runs under, where it has its own (else undefined).
const ownModel = (body) => body.parameters?.materialModel;

/** Whether each body of a lineup runs its own material model. */
export const modelPerBody = (bodies) => bodies.every((body) => ownModel(body) !== undefined);

/** What a body of a lineup is labelled with on the canvas: its model, or its mesh and its fit. */
export function lineupLabels(pages, settings, bodies) {
  if (modelPerBody(bodies)) return bodies.map((body) => materialModelLabels[ownModel(body)]);
  return pages.map(
    (page) => `${tetCount(page)} tets, EigenFit ${settings.eigenFit === false ? 'off' : 'on'}`,
  );
}

/** The plots', CSV's and status's name for each body: its solver, and its model or its mesh. */
export function lineupNames(pages, sets, bodies) {
  if (modelPerBody(bodies)) return sets.map((set) => `${solverName(set)}-${set.materialModel}`);
  return pages.map((page, i) => `${solverName(sets[i])}-${page.meta.mesh.tets}-tets`);
}

/** Every simulator of a lineup under the same parameters, but for each body's own. */
export function lineupParameterSets(settings, gravityVector, bodies) {
  const [shared] = parameterSets({ ...settings, compare: false }, gravityVector);
  return bodies.map((body) => ({ ...shared, ...(body.parameters ?? {}) }));
}

// Looking at the lineup from the front, a little above: the bodies stand along x, so a view
// from the side of the row shows each one's swing in the same plane.
function frontCamera(bounds) {
  const center = bounds.getCenter(new Vector3());
  const size = bounds.getSize(new Vector3());
  const distance = 1.1 * Math.max(size.x, size.y);
  return {
    position: [center.x, center.y + 0.25 * distance, center.z + distance],
    target: center.toArray(),
  };
}

// The render vertex of `surface` nearest a rest point (its own coordinates): where a drag on
// one body of a lineup holds each of the others.
function nearestVertex(surface, point) {
  const p = surface.positions;
  let best = 0;
  let bestDistance = Infinity;
  for (let v = 0; v < surface.vertexCount; ++v) {
    const d = (p[3 * v] - point[0]) ** 2 + (p[3 * v + 1] - point[1]) ** 2 + (p[3 * v + 2] - point[2]) ** 2;
    if (d < bestDistance) [best, bestDistance] = [v, d];
  }
  return best;
}

/**
 * Opens a lineup: lineup.bodies [{ name, url, parameters (optional: this body's own, e.g.
 * { materialModel }) }], one simulator each. context: { client,
 * showProgress(fraction), warn(text) }. Returns what Demo.open shows, with the settings.
 */
export async function openLineup({ client, showProgress, warn }, name, lineup, overrides) {
  // Each asset once, however many bodies run it.
  const urls = [...new Set(lineup.bodies.map((body) => String(body.url)))];
  let fetched = 0;
  const bytesOf = new Map(
    await Promise.all(
      urls.map(async (url) => {
        const bytes = await fetchBytes(url);
        showProgress((0.45 * ++fetched) / urls.length);
        return [url, bytes];
      }),
    ),
  );
  const assets = lineup.bodies.map((body) => ({ bytes: bytesOf.get(String(body.url)), name: body.name }));
  const loaded = await client.loadLineup({ assets });
  const pages = loaded.pages;
  // The settings are the first body's (the same recipe at every resolution).
  const meta = pages[0].meta;
  const effective = loaded.info[0].parameters;
  const settings = settingsFor(meta, effective, { ...overrides, compare: false });
  boundMode(settings, Math.min(...pages.map((page) => page.surface.modeCount)), warn);
  const gravityVector = effective.gravity;
  const sets = lineupParameterSets(settings, gravityVector, lineup.bodies);
  await client.setParameters(sets);
  const stage = new SideBySideStage(pages);
  const stiffness = dragStiffness(loaded.info[0].totalMass);
  let held = null;
  const local = (point) => point.clone().sub(stage.bodies[held].offset).toArray();
  return {
    settings,
    meta,
    gravityVector,
    loaded,
    stage,
    names: lineupNames(pages, sets, lineup.bodies),
    labels: lineupLabels(pages, settings, lineup.bodies),
    timestep: settings.timestep,
    camera: frontCamera(stage.bounds),
    description: lineup.description,
    controls: {
      ...bodyControls(meta, loaded.info[0], pages[0].surface, stage),
      lineup: true,
      modelPerBody: modelPerBody(lineup.bodies),
    },
    dragActions: {
      // Every body held at the vertex nearest the same rest point, pulled to the same place
      // relative to it: the same input whatever the mesh.
      grab: (body, vertex, point) => {
        held = body;
        const p = pages[body].surface.positions;
        const rest = [p[3 * vertex], p[3 * vertex + 1], p[3 * vertex + 2]];
        const vertices = pages.map((page, i) => (i === body ? vertex : nearestVertex(page.surface, rest)));
        const target = local(point);
        return client.dragStart(
          0,
          vertex,
          pages.map(() => target),
          stiffness,
          vertices,
        );
      },
      pull: (point) => {
        const target = local(point);
        return client.dragMove(pages.map(() => target));
      },
      release: () => client.dragEnd(),
    },
  };
}
