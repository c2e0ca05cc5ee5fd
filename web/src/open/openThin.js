// Opening a shell or a rod (a thin body's recipe, assets/scenes/thin/): the worker reads the
// recipe and builds its simulators, one or two side by side; the settings are the URL's over the
// recipe's own solver settings.
import { ThinStage } from '../render/ThinStage.js';
import { comparedSolvers, runLabel, solverName, solvers } from '../state/urlState.js';
import { sideBySideDragActions } from './dragStiffness.js';

// material: the body's one material (info.materials[0], region 0).
function thinSettingsFor(effective, material, overrides) {
  return {
    youngs: { 0: overrides.youngs?.[0] ?? material.youngs },
    solver: overrides.solver ?? solverName(effective),
    iterations: overrides.iterations ?? effective.iterations,
    timestep: overrides.timestep ?? effective.timestep,
    gravity: overrides.gravity ?? effective.gravity[1],
    speed: overrides.speed ?? 1,
    compare: overrides.compare ?? false,
    against: overrides.against ?? comparedSolvers[0],
  };
}

/**
 * One parameter set per simulator (side by side: MFEM on the left). The page's MFEM is the thin
 * bodies' own variant (`mixedVariant`, the recipe's: thin_body.hpp says why it is not the
 * volumes'); the paper's variant and FEM as for volumes.
 */
export function thinParameterSets(settings, gravityVector, mixedVariant) {
  const shared = {
    iterations: settings.iterations,
    timestep: settings.timestep,
    gravity: [gravityVector[0], settings.gravity, gravityVector[2]],
    materials: [{ region: 0, youngs: settings.youngs[0] }],
  };
  const solver = (name) => (name === 'mfem' ? { solver: 'mfem', mixedVariant } : solvers[name].parameters);
  return settings.compare
    ? [
        { ...shared, ...solver('mfem') },
        { ...shared, ...solver(settings.against) },
      ]
    : [{ ...shared, ...solver(settings.solver) }];
}

/** Opens a shell or a rod. context: { client, showProgress(fraction) }. Returns what Demo.open shows. */
export async function openThin({ client, showProgress }, name, thin, overrides) {
  showProgress(0.45);
  const loaded = await client.loadThin({
    recipeText: thin.text,
    meshUrls: thin.meshUrls,
    sourceName: `${name}.json`,
    parameterSets: overrides.compare ? [{}, {}] : [{}],
  });
  const info = loaded.info[0];
  const effective = info.parameters;
  const [material] = info.materials;
  const settings = thinSettingsFor(effective, material, overrides);
  const gravityVector = effective.gravity;
  const mixedVariant = effective.mixedVariant;
  const sets = thinParameterSets(settings, gravityVector, mixedVariant);
  await client.setParameters(sets);
  const stage = new ThinStage(loaded.shape, info.obstacles, loaded.u.length);
  return {
    settings,
    meta: null,
    gravityVector,
    mixedVariant,
    loaded,
    stage,
    names: sets.map(solverName),
    labels: settings.compare ? sets.map(runLabel) : null,
    timestep: settings.timestep,
    camera: settings.compare ? null : info.camera,
    description:
      `${info.description} ` +
      (info.kind === 'shell'
        ? `A shell of ${info.vertices.toLocaleString('en-US')} vertices`
        : `${info.elements.toLocaleString('en-US')} rod segments between ` +
          `${info.vertices.toLocaleString('en-US')} vertices`) +
      ', solved in full space.' +
      (settings.compare
        ? ` Left: ${solvers.mfem.label}; right: ${solvers[settings.against].label}, same inputs.`
        : ''),
    controls: {
      thin: true,
      // Its one material, with a modulus slider (the recipe is made again with it: openThin's
      // parameter sets); the slider returns to the recipe's modulus exactly.
      materials: [{ name: info.kind, region: 0 }],
      sampledRegions: [0],
      defaults: {
        timestep: effective.timestep,
        gravity: effective.gravity[1],
        youngs: { 0: material.youngs },
      },
    },
    draggable: true,
    dragActions: sideBySideDragActions(client, stage, info.totalMass),
  };
}
