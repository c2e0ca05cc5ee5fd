// Opening a shell or a rod (a thin body's recipe, assets/scenes/thin/): the worker reads the
// recipe and builds its simulators, one or two side by side; the settings are the URL's over the
// recipe's own solver settings.
import { ThinStage } from '../render/ThinStage.js';
import { comparedSolvers, runLabel, solverName, solvers } from '../state/urlState.js';
import { sideBySideDragActions } from './dragStiffness.js';

// materials: info.materials, one per part of the recipe (region i: part i).
function thinSettingsFor(effective, materials, overrides) {
  return {
    youngs: Object.fromEntries(
      materials.map(({ region, youngs }) => [region, overrides.youngs?.[region] ?? youngs]),
    ),
    solver: overrides.solver ?? solverName(effective),
    iterations: overrides.iterations ?? effective.iterations,
    timestep: overrides.timestep ?? effective.timestep,
    gravity: overrides.gravity ?? effective.gravity[1],
    speed: overrides.speed ?? 1,
    compare: overrides.compare ?? false,
    against: overrides.against ?? comparedSolvers[0],
    strain: overrides.strain ?? false,
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
    materials: Object.entries(settings.youngs).map(([region, youngs]) => ({
      region: Number(region),
      youngs,
    })),
  };
  const solver = (name) => (name === 'mfem' ? { solver: 'mfem', mixedVariant } : solvers[name].parameters);
  return settings.compare
    ? [
        { ...shared, ...solver('mfem') },
        { ...shared, ...solver(settings.against) },
      ]
    : [{ ...shared, ...solver(settings.solver) }];
}

// What a part of a recipe is, in words (info.parts[i]).
function partDescription({ kind, elements, vertices }, index, parts) {
  const count = (n) => n.toLocaleString('en-US');
  const words = {
    shell: `a shell of ${count(vertices)} vertices`,
    rod: `${count(elements)} rod segments between ${count(vertices)} vertices`,
    volume: `a volume of ${count(elements)} tets`,
  }[kind];
  const sentence = index === 0 ? words[0].toUpperCase() + words.slice(1) : words;
  return index > 0 && index === parts.length - 1 ? `and ${sentence}` : sentence;
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
  const settings = thinSettingsFor(effective, info.materials, overrides);
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
    partCount: info.parts.length,
    names: sets.map(solverName),
    labels: settings.compare ? sets.map(runLabel) : null,
    timestep: settings.timestep,
    camera: settings.compare ? null : info.camera,
    description:
      `${info.description} ` +
      info.parts.map(partDescription).join(', ') +
      (info.parts.length > 1 ? ', solved together in full space.' : ', solved in full space.') +
      (stage.obstacles.length > 0
        ? ' Drag it, or the grey obstacles (with Shift, one under the cloth).'
        : '') +
      (settings.compare
        ? ` Left: ${solvers.mfem.label}; right: ${solvers[settings.against].label}, same inputs.`
        : ''),
    controls: {
      thin: true,
      // A modulus slider per part (the recipe is made again with it: thinParameterSets); each
      // returns to the recipe's modulus exactly.
      materials: info.materials.map(({ name, region }) => ({ name, region })),
      sampledRegions: info.materials.map(({ region }) => region),
      defaults: {
        timestep: effective.timestep,
        gravity: effective.gravity[1],
        youngs: Object.fromEntries(info.materials.map(({ region, youngs }) => [region, youngs])),
      },
    },
    dragActions: {
      ...sideBySideDragActions(client, stage, info.totalMass),
      // Every copy's obstacle alike; each step takes it there as far as the body lets it.
      moveObstacle: (index, offset) => client.moveObstacle(index, offset.toArray()),
    },
  };
}
