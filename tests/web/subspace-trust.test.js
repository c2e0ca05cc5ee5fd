// The page's note on how far the baked subspace holds as the moduli move (web/src/ui/subspaceTrust.js).
import { describe, expect, it } from 'vitest';
import { subspaceTrustNote } from '../../web/src/ui/subspaceTrust.js';

const crab = [
  { name: 'joints', region: 0, youngs: 1e6 },
  { name: 'shell', region: 1, youngs: 1e10 },
];

describe('subspaceTrustNote', () => {
  it('says nothing at the baked moduli, nor when every modulus scales alike', () => {
    expect(subspaceTrustNote(crab, { 0: 1e6, 1: 1e10 }, [0, 1])).toBeNull();
    expect(subspaceTrustNote(crab, { 0: 1e9, 1: 1e13 }, [0, 1])).toBeNull();
    expect(subspaceTrustNote(crab, { 0: 5e6, 1: 1e10 }, [0, 1])).toBeNull(); // within a decade
  });

  it('speaks once the stiffness pattern moves by more than a decade, either way', () => {
    expect(subspaceTrustNote(crab, { 0: 1e8, 1: 1e10 }, [0, 1])).toMatch(/1e2×/);
    expect(subspaceTrustNote(crab, { 0: 1e6, 1: 1e13 }, [0, 1])).toMatch(
      /shell 1e4 times stiffer than joints/,
    );
  });

  it('ignores what the solver does not see: a single material, or a region without cubature', () => {
    expect(subspaceTrustNote([crab[0]], { 0: 1e2 }, [0])).toBeNull();
    expect(subspaceTrustNote(crab, { 0: 1e2, 1: 1e10 }, [1])).toBeNull();
  });
});
