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
  });

  it('ignores unknown scenes and solvers and clamps numbers to the sliders', () => {
    const state = parseState(
      '?scene=nope&solver=xpbd&against=xpbd&iters=1e9&dt=-1&E0=1e30&speed=abc&mode=999',
      names,
    );
    expect(state).toEqual({
      mode: limits.mode.max,
      iterations: limits.iterations.max,
      timestep: limits.timestep.min,
      youngs: { 0: limits.youngs.max },
    });
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
