import { describe, expect, it } from 'vitest';
import { formatState, limits, parseState, solverName, solvers } from '../../web/src/state/urlState.js';

const names = ['crab', 'bunny'];

describe('URL state', () => {
  it('round-trips every setting', () => {
    const state = {
      scene: 'crab',
      solver: 'fem',
      materialModel: 'stable_neo_hookean',
      iterations: 4,
      timestep: 0.01,
      speed: 0.5,
      gravity: -9.8,
      mode: 3,
      youngs: { 0: 1e10, 2: 1e6 },
      embed: true,
      compare: true,
      against: 'mfem-paper',
      clusters: true,
      contacts: true,
    };
    expect(parseState(formatState(state), names)).toEqual(state);
    // Without side by side, the solver it would run beside is not written.
    expect(formatState({ scene: 'crab', solver: 'fem', against: 'fem' })).toBe('?scene=crab&solver=fem');
    const hosted = { asset: 'https://example.org/models/my bunny.smfem?v=2', iterations: 2, ground: true };
    expect(parseState(formatState(hosted), names)).toEqual(hosted);
  });

  it('says an empty asset names nothing', () => {
    const notices = [];
    expect(parseState('?asset=', names, notices)).toEqual({});
    expect(notices).toEqual(['asset= names no file: the gallery opens.']);
  });

  it('ignores unknown scenes and solvers and clamps numbers to the sliders, saying so for each', () => {
    const notices = [];
    const state = parseState(
      '?scene=nope&solver=xpbd&against=xpbd&iters=1e9&dt=-1&E0=1e30&speed=abc&mode=-2&paused=yes',
      names,
      notices,
    );
    expect(state).toEqual({
      mode: 0,
      iterations: limits.iterations.max,
      timestep: limits.timestep.min,
      youngs: { 0: limits.youngs.max },
    });
    expect(notices).toEqual([
      'scene=nope is not a scene of the gallery: the default is used.',
      'solver=xpbd is not one of mfem, mfem-paper, fem: the default is used.',
      'against=xpbd is not one of fem, mfem-paper: the default is used.',
      `iters=1e9 is outside [1, 200]: 200 is used.`,
      `dt=-1 is outside [1e-5, 0.1] s: 1e-5 is used.`,
      'speed=abc is not a number: the default is used.',
      'mode=-2 is below 0: 0 is used.',
      'E0=1e30 is outside [100, 1e13] Pa: 1e13 is used.',
      'paused=yes is neither 1 nor 0: it is off.',
    ]);
  });

  it("leaves a mode above any scene's to the scene opened, which says it once by its own count", () => {
    const notices = [];
    expect(parseState('?mode=999', names, notices)).toEqual({ mode: 999 });
    expect(notices).toEqual([]);
  });

  it('says a value inside the range was rounded, not that it was outside', () => {
    const notices = [];
    expect(parseState('?iters=2.5', names, notices)).toEqual({ iterations: 3 });
    expect(notices).toEqual(['iters=2.5 is not a whole number: 3 is used.']);
  });

  it('says nothing of values it takes as they are', () => {
    const notices = [];
    parseState('?scene=crab&iters=3&dt=0.01&E2=1e6&compare=1&paused=0', names, notices);
    expect(notices).toEqual([]);
  });

  it("names each solver the page offers, the paper's variant of MFEM included", () => {
    expect(parseState('?solver=mfem-paper', names)).toEqual({ solver: 'mfem-paper' });
    for (const [name, { parameters }] of Object.entries(solvers)) expect(solverName(parameters)).toBe(name);
  });

  it('is empty for an empty query', () => {
    expect(parseState('', names)).toEqual({});
    expect(formatState({})).toBe('');
  });
});
