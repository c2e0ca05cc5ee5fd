// Opening a body on its own (a gallery scene of one asset): the worker reads the asset and
// builds its simulators; the settings are the URL's over the stepper's own defaults.
import { fetchBytes } from '../../../wasm/js/fetchBytes.js';
import { SideBySideStage } from '../render/SideBySideStage.js';
import { localComparisonLabels, localComparisonNames } from '../state/localComparison.js';
import { comparedSolvers, runLabel, solverName, solvers } from '../state/urlState.js';
import { sideBySideDragActions } from './dragStiffness.js';

// Settings of the running scene: the URL's and the controls' over `effective`, the parameters
// the simulator read from the asset (the stepper owns the defaults; the page keeps no copy),
// and the materials' moduli from its metadata.
export function settingsFor(meta, effective, overrides) {
  const youngs = Object.fromEntries(
    assetMaterials(meta).map(({ region, youngs }) => [region, overrides.youngs?.[region] ?? youngs]),
  );
  const compare = (overrides.compare ?? false) && !overrides.compareLocal;
  return {
    // Side by side runs MFEM on the left (parameterSets), which the solver menu then shows.
    solver: compare ? 'mfem' : (overrides.solver ?? solverName(effective)),
    materialModel: overrides.materialModel ?? effective.materialModel,
    iterations: overrides.iterations ?? effective.iterations,
    timestep: overrides.timestep ?? effective.timestep,
    gravity: overrides.gravity ?? effective.gravity[1],
    speed: overrides.speed ?? 1,
    compare,
    // Local deformations (paper 001: the drag dents where it grabs), on every simulator, or
    // side by side on and off (compareLocal, over compare).
    local: overrides.local ?? false,
    compareLocal: overrides.compareLocal ?? false,
    // Beside MFEM when side by side.
    against: overrides.against ?? comparedSolvers[0],
    // Colour by the weight of this mode (1-based, as the page shows it), or 0: the material's.
    mode: overrides.mode ?? 0,
    // Colour by cubature cluster and show the representative tets (over `mode`).
    clusters: overrides.clusters ?? false,
    // The asset's EigenFit correction, where it has one (the stepper's default: on).
    eigenFit: overrides.eigenFit ?? effective.eigenFit,
    youngs,
  };
}

/** The mode coloured within the scene's own (the URL's bound is any scene's), said once. */
export function boundMode(settings, modeCount, warn) {
  if (settings.mode <= modeCount) return;
  warn(`mode=${settings.mode}: this scene has ${modeCount} modes; mode ${modeCount} is shown.`);
  settings.mode = modeCount;
}

// One parameter set per simulator: side by side, MFEM on the left and FEM (or the paper's
// variant of MFEM) on the right, with everything else the same.
// Side by side with and without local deformations, both the chosen solver.
export function parameterSets(settings, gravityVector) {
  const shared = simulatorParameters(settings, gravityVector);
  const chosen = { ...shared, ...solvers[settings.solver].parameters };
  if (settings.compareLocal) return [chosen, chosen];
  return settings.compare
    ? [
        { ...shared, ...solvers.mfem.parameters },
        { ...shared, ...solvers[settings.against].parameters },
      ]
    : [chosen];
}

// Per simulator, whether it runs local deformations (side by side on and off: the first).
function localDeformationsOf(settings, count) {
  if (settings.compareLocal) return [true, false];
  return new Array(count).fill(settings.local);
}

/** The plots', CSV's and status's name for each simulator: its solver (and whether it dents). */
export function bodySeriesNames(settings, sets) {
  return settings.compareLocal ? localComparisonNames(solverName(sets[0])) : sets.map(solverName);
}

function simulatorParameters(settings, gravityVector) {
  return {
    materialModel: settings.materialModel,
    eigenFit: settings.eigenFit,
    iterations: settings.iterations,
    timestep: settings.timestep,
    gravity: [gravityVector[0], settings.gravity, gravityVector[2]],
    materials: Object.entries(settings.youngs).map(([region, youngs]) => ({
      region: Number(region),
      youngs,
    })),
  };
}

/** The asset's materials (its metadata's), each with its region: [{ name, region, youngs }]. */
export function assetMaterials(meta) {
  return (meta.materials ?? []).map(({ name, region, youngs }, index) => ({
    name,
    region: region ?? index,
    youngs,
  }));
}

/**
 * What the panel and the legend take of a body's materials: their names and regions, the baked
 * moduli, the regions its cubature samples.
 */
export function materialControls(meta, cubatureRegions) {
  const materials = assetMaterials(meta);
  return {
    sampledRegions: cubatureRegions,
    defaultYoungs: Object.fromEntries(materials.map(({ region, youngs }) => [region, youngs])),
    materials: materials.map(({ name, region }) => ({ name, region })),
  };
}

/**
 * What the panel shows for a body (Controls.build's options): its materials, their sampled
 * regions, the scene's own settings the sliders return to, its modes, clusters and EigenFit.
 * info: the first simulator's (loader.d.ts: SimulatorInfo).
 */
export function bodyControls(meta, info, surface, stage, localDeformations = false) {
  const effective = info.parameters;
  const { sampledRegions, defaultYoungs, materials } = materialControls(meta, info.cubatureRegions);
  return {
    localDeformations,
    sampledRegions,
    defaults: { timestep: effective.timestep, gravity: effective.gravity[1], youngs: defaultYoungs },
    materials,
    modeCount: surface.modeCount,
    hasClusters: stage.hasClusters,
    eigenFit: info.eigenFit,
  };
}

/**
 * Opens a body on its own: one simulator, or two side by side. context: { client (the worker's),
 * showProgress(fraction), warn(text) }; scene: scenes.js's, { url, fullUrl, sourceName } (fullUrl:
 * the asset with its tet mesh, which local deformations need, or absent; sourceName: the file
 * the reader's messages name, by default `${name}.smfem`). Returns what Demo.open shows, with the
 * settings, the asset's metadata and gravity vector.
 */
export async function openBody(
  { client, showProgress, warn },
  name,
  { url, fullUrl, sourceName },
  overrides,
) {
  // Local deformations where the URL asks and the scene can.
  const asked = { local: overrides.local ?? false, compareLocal: overrides.compareLocal ?? false };
  if ((asked.local || asked.compareLocal) && !fullUrl) {
    warn(
      `${name}: this scene has no tet mesh with it, so no local deformations: its global modes alone run.`,
    );
    asked.local = asked.compareLocal = false;
  }
  const dents = asked.local || asked.compareLocal;
  const bytes = await fetchBytes(dents ? fullUrl : url, (loaded, total) =>
    showProgress(total ? (0.45 * loaded) / total : null),
  );
  // The worker reads the asset (the page parses none); the settings are its metadata's
  // defaults under the URL's, given to the simulators once it is read.
  const count = asked.compareLocal || overrides.compare ? 2 : 1;
  const loaded = await client.load({
    asset: bytes,
    sourceName: sourceName ?? `${name}.smfem`,
    parameterSets: new Array(count).fill({}),
    localDeformations: localDeformationsOf(asked, count),
  });
  const meta = loaded.page.meta;
  const effective = loaded.info[0].parameters;
  const settings = settingsFor(meta, effective, { ...overrides, ...asked });
  const gravityVector = effective.gravity;
  const sets = parameterSets(settings, gravityVector);
  await client.setParameters(sets);
  const { surface, markers } = loaded.page;
  boundMode(settings, surface.modeCount, warn);
  const stage = new SideBySideStage(
    loaded.info.map((info) => ({ surface, markers, dent: info.localDeformations })),
  );
  const labels = settings.compareLocal ? localComparisonLabels : settings.compare ? sets.map(runLabel) : null;
  return {
    settings,
    meta,
    gravityVector,
    loaded,
    stage,
    names: bodySeriesNames(settings, sets),
    // Side by side, each body says on the canvas what runs it.
    labels,
    timestep: settings.timestep,
    camera: labels ? null : (meta.camera ?? null),
    description:
      (meta.description ?? '') +
      (settings.compare
        ? ` Left: ${solvers.mfem.label}; right: ${solvers[settings.against].label}, same inputs.`
        : '') +
      (settings.compareLocal
        ? ' Left: with local deformations (drag it: it dents where you grab, if the part there is soft enough to dent and no far stiffer part is next to it); right: its global modes alone.'
        : settings.local
          ? ' Local deformations are on: drag the body and it dents where you grab, if the part there is soft enough to dent and no far stiffer part is next to it.'
          : ''),
    controls: bodyControls(meta, loaded.info[0], surface, stage, Boolean(fullUrl)),
    dragActions: sideBySideDragActions(client, stage, loaded.info[0].totalMass),
  };
}
