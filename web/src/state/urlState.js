// The page's settings mirrored in the URL (?scene=crab&solver=fem&iters=2...), so a copied
// link reopens the same setup. Unknown or out-of-range values fall back to the scene's
// defaults instead of failing: links outlive the page's versions.

// Bounds shared with the controls (a slider cannot leave them either).
export const limits = {
  iterations: { min: 1, max: 50 },
  timestep: { min: 1e-3, max: 0.05 },
  speed: { min: 0.05, max: 4 },
  youngs: { min: 1e3, max: 1e12 },
  gravity: { min: -30, max: 30 },
  mode: { min: 0, max: 64 },
};

// The material models the stepper offers (sim/material_model.hpp; tests/wasm/simulator.test.js
// checks that it accepts exactly these), with the names the controls show.
export const materialModels = {
  arap: 'ARAP',
  fixed_corotational: 'Fixed corotational',
  stable_neo_hookean: 'Stable neo-Hookean',
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

// On/off settings, '1' in the URL when on.
const flags = ['embed', 'compare', 'paused', 'clusters', 'contacts'];

const clamp = (value, { min, max }) => Math.min(max, Math.max(min, value));

function number(text, range) {
  if (text === null || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? clamp(value, range) : undefined;
}

/**
 * Reads the state from a query string. Result keys are absent when the URL does not set them:
 * scene, solver (a key of solvers), materialModel (a key of materialModels), iterations, timestep, speed,
 * gravity (y component, m/s^2), youngs ({ region: Pa }), mode (colour by this mode's weight,
 * 1-based; 0: off), clusters (colour by cubature cluster), embed, compare (side by side),
 * against (the solver beside MFEM: one of comparedSolvers), paused, contacts (show a scene's
 * contact points).
 */
export function parseState(search, sceneNames) {
  const params = new URLSearchParams(search);
  const state = {};
  const scene = params.get('scene');
  if (scene && sceneNames.includes(scene)) state.scene = scene;
  const solver = params.get('solver');
  if (Object.hasOwn(solvers, solver)) state.solver = solver;
  const against = params.get('against');
  if (comparedSolvers.includes(against)) state.against = against;
  const model = params.get('model');
  if (Object.hasOwn(materialModels, model)) state.materialModel = model;
  const iterations = number(params.get('iters'), limits.iterations);
  if (iterations !== undefined) state.iterations = Math.round(iterations);
  const timestep = number(params.get('dt'), limits.timestep);
  if (timestep !== undefined) state.timestep = timestep;
  const speed = number(params.get('speed'), limits.speed);
  if (speed !== undefined) state.speed = speed;
  const gravity = number(params.get('g'), limits.gravity);
  if (gravity !== undefined) state.gravity = gravity;
  const mode = number(params.get('mode'), limits.mode);
  if (mode !== undefined) state.mode = Math.round(mode);
  for (const [key, text] of params) {
    const match = /^E(\d+)$/.exec(key);
    if (!match) continue;
    const youngs = number(text, limits.youngs);
    if (youngs !== undefined) (state.youngs ??= {})[Number(match[1])] = youngs;
  }
  for (const flag of flags) {
    if (params.get(flag) === '1') state[flag] = true;
  }
  return state;
}

/** The query string of a state (only the keys it has), in a stable order. */
export function formatState(state) {
  const params = new URLSearchParams();
  if (state.scene) params.set('scene', state.scene);
  if (state.solver) params.set('solver', state.solver);
  if (state.against) params.set('against', state.against);
  if (state.materialModel) params.set('model', state.materialModel);
  if (state.iterations !== undefined) params.set('iters', String(state.iterations));
  if (state.timestep !== undefined) params.set('dt', String(state.timestep));
  if (state.speed !== undefined) params.set('speed', String(state.speed));
  if (state.gravity !== undefined) params.set('g', String(state.gravity));
  if (state.mode) params.set('mode', String(state.mode));
  for (const [region, youngs] of Object.entries(state.youngs ?? {})) {
    params.set(`E${region}`, youngs.toPrecision(3));
  }
  for (const flag of flags) if (state[flag]) params.set(flag, '1');
  const text = params.toString();
  return text ? `?${text}` : '';
}
