// The page's settings mirrored in the URL (?scene=crab&solver=fem&iters=2...), so a copied
// link reopens the same setup. Unknown or out-of-range values fall back to the scene's
// defaults or the nearest allowed value instead of failing (links outlive the page's
// versions), and each such fallback is said.
import { materialModelLabels } from '../../../wasm/js/material_models.js';
import solverLimits from '../../../wasm/src/smfem/sim/solver_limits.json' with { type: 'json' };

// Bounds shared with the controls (a slider cannot leave them either): the stepper's own ranges
// for what it clamps (solver_limits.json owns them), the page's for what only the page has.
export const limits = {
  iterations: solverLimits.iterations,
  timestep: solverLimits.timestep,
  youngs: solverLimits.youngs,
  speed: { min: 0.05, max: 4 },
  gravity: { min: -30, max: 30 }, // the slider's: within the stepper's length of 1000 m/s²
  // 0: colour by material; else a mode's weight. No maximum here: the scene opened bounds it by
  // its own mode count and says so once (openBody), where a 64 here said it twice for mode=999.
  mode: { min: 0, max: Infinity },
  // What "Your model" may ask of a bake.
  modes: solverLimits.modes,
  cubature: solverLimits.cubature,
};

// The page's solvers: its name for each (in the URL, the plots and the CSV), the label the
// controls show and the simulator parameters behind it. 'mfem' is the solver's default variant.
export const solvers = {
  mfem: { label: 'Mixed FEM (MFEM)', parameters: { solver: 'mfem', mixedVariant: 'curvature' } },
  'mfem-paper': { label: "MFEM, the paper's variant", parameters: { solver: 'mfem', mixedVariant: 'paper' } },
  fem: { label: 'FEM', parameters: { solver: 'fem' } },
};

// The solvers that can run beside MFEM when side by side, the first the default.
export const comparedSolvers = ['fem', 'mfem-paper'];

/** The page's name of a simulator's parameters (loader.d.ts: SimulatorParameters). */
export function solverName({ solver, mixedVariant }) {
  if (solver === 'fem') return 'fem';
  return mixedVariant === 'paper' ? 'mfem-paper' : 'mfem';
}

/** What a body side by side is labelled with on the canvas: its solver and iterations. */
export function runLabel(parameters) {
  const { label } = solvers[solverName(parameters)];
  return `${label}, ${parameters.iterations} iteration${parameters.iterations === 1 ? '' : 's'}`;
}

// On/off settings, '1' in the URL when on.
const flags = [
  'embed',
  'compare',
  'paused',
  'clusters',
  'contacts',
  'ground',
  'globalOnly',
  'local',
  'compareLocal',
  'strain',
];

// The flags a scene takes where it can (the rest are the page's own): the settings a scene's
// opener returns have a key for each it takes, and the page says which of the URL's it did not.
const pageFlags = ['embed', 'paused', 'ground'];
export const sceneFlags = flags.filter((flag) => !pageFlags.includes(flag));

// Flags that give way to another where both are set (openBody.js: settingsFor; openContact.js:
// localChoice), so the page says which won instead of that the scene lacks the flag.
export const flagGivesWayTo = { compare: 'compareLocal', globalOnly: 'compare' };

// The settings the URL gives values for that a scene may not have, by the URL's name for each
// (the page warns of those a scene's settings lack).
export const urlValueKeys = {
  timestep: 'dt',
  gravity: 'g',
  mode: 'mode',
  materialModel: 'model',
  against: 'against',
};

/** A URL key of a material's Young's modulus, E<region> (E0, E1, ...); its group is the region. */
export const modulusKey = /^E(\d+)$/;

const clamp = (value, { min, max }) => Math.min(max, Math.max(min, value));
// A number as a person writes it: 1e-5 and 1e13, not 0.00001 and 10000000000000.
const written = (value) =>
  value !== 0 && (Math.abs(value) < 1e-3 || Math.abs(value) >= 1e6)
    ? value.toExponential().replace('e+', 'e')
    : String(value);

/**
 * Reads the state from a query string. Result keys are absent when the URL does not set them:
 * scene, solver (a key of solvers), materialModel (a key of materialModelLabels), iterations, timestep, speed,
 * gravity (y component, m/s^2), youngs ({ region: Pa }), mode (colour by this mode's weight,
 * 1-based; 0: off), clusters (colour by cubature cluster), embed, compare (side by side),
 * against (the solver beside MFEM: one of comparedSolvers), paused, contacts (show a scene's
 * contact points), asset (a baked asset's URL, absolute or relative to the page: opened as the
 * scene "custom" instead of a gallery scene), ground (that asset dropped on a ground plane),
 * globalOnly (a scene's local deformations off: its global modes alone), local (a body's local
 * deformations on), compareLocal (a body with and without them side by side), strain (a shell or
 * rod coloured by its edges' strain). Every value refused or clamped adds a sentence to `notices` naming the
 * parameter and what is used instead (the page shows them).
 */
export function parseState(search, sceneNames, notices = []) {
  const params = new URLSearchParams(search);
  const state = {};
  // what: how to say what the value is not (default: the list of choices).
  const name = (key, choices, into, what = `one of ${choices.join(', ')}`) => {
    const text = params.get(key);
    if (text === null) return;
    if (choices.includes(text)) state[into] = text;
    else notices.push(`${key}=${text} is not ${what}: the default is used.`);
  };
  const number = (key, range, into, { round = false, unit = '' } = {}) => {
    const text = params.get(key);
    if (text === null) return;
    const value = text.trim() === '' ? NaN : Number(text);
    if (!Number.isFinite(value)) {
      notices.push(`${key}=${text} is not a number: the default is used.`);
      return;
    }
    const inside = clamp(value, range);
    const used = round ? Math.round(inside) : inside;
    if (inside !== value) {
      const bounds =
        range.max === Infinity
          ? `below ${written(range.min)}`
          : `outside [${written(range.min)}, ${written(range.max)}]`;
      notices.push(`${key}=${text} is ${bounds}${unit}: ${written(used)} is used.`);
    } else if (used !== value) {
      notices.push(`${key}=${text} is not a whole number: ${written(used)} is used.`);
    }
    into(used);
  };
  name('scene', sceneNames, 'scene', 'a scene of the gallery');
  const asset = params.get('asset');
  if (asset) state.asset = asset;
  else if (asset !== null) notices.push('asset= names no file: the gallery opens.');
  name('solver', Object.keys(solvers), 'solver');
  name('against', comparedSolvers, 'against');
  name('model', Object.keys(materialModelLabels), 'materialModel');
  number('iters', limits.iterations, (v) => (state.iterations = v), { round: true });
  number('dt', limits.timestep, (v) => (state.timestep = v), { unit: ' s' });
  number('speed', limits.speed, (v) => (state.speed = v));
  number('g', limits.gravity, (v) => (state.gravity = v), { unit: ' m/s²' });
  number('mode', limits.mode, (v) => (state.mode = v), { round: true });
  for (const [key] of params) {
    const match = modulusKey.exec(key);
    if (match)
      number(key, limits.youngs, (v) => ((state.youngs ??= {})[Number(match[1])] = v), { unit: ' Pa' });
  }
  for (const flag of flags) {
    const text = params.get(flag);
    if (text === '1') state[flag] = true;
    else if (text !== null && text !== '0') notices.push(`${flag}=${text} is neither 1 nor 0: it is off.`);
  }
  return state;
}

// A slider's value as the URL shows it: six digits (a logarithmic slider's position made
// dt=0.0162181009735893), which the slider cannot tell apart.
const urlNumber = (x) => String(Number(x.toPrecision(6)));

/** The query string of a state (only the keys it has), in a stable order. */
export function formatState(state) {
  const params = new URLSearchParams();
  if (state.asset) params.set('asset', state.asset);
  if (state.scene) params.set('scene', state.scene);
  if (state.solver) params.set('solver', state.solver);
  // The solver beside MFEM matters only side by side (the select keeps it while that is off).
  if (state.against && state.compare) params.set('against', state.against);
  if (state.materialModel) params.set('model', state.materialModel);
  if (state.iterations !== undefined) params.set('iters', String(state.iterations));
  if (state.timestep !== undefined) params.set('dt', urlNumber(state.timestep));
  if (state.speed !== undefined) params.set('speed', urlNumber(state.speed));
  if (state.gravity !== undefined) params.set('g', urlNumber(state.gravity));
  if (state.mode) params.set('mode', String(state.mode));
  for (const [region, youngs] of Object.entries(state.youngs ?? {})) {
    params.set(`E${region}`, Number(youngs.toPrecision(3)).toExponential().replace('e+', 'e'));
  }
  for (const flag of flags) if (state[flag]) params.set(flag, '1');
  const text = params.toString();
  return text ? `?${text}` : '';
}
