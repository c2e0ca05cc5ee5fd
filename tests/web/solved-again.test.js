// The status line's sentence for steps solved again with more iterations.
import { describe, expect, it } from 'vitest';
import { solvedAgainSentence } from '../../web/src/ui/solvedAgain.js';

describe('steps solved again', () => {
  it('says nothing while none was', () => {
    expect(solvedAgainSentence(['mfem'], [0], 2)).toBe('');
  });

  it('counts them at the current setting, in words', () => {
    expect(solvedAgainSentence(['mfem'], [1], 1)).toBe(
      '1 step so far: at 1 iteration it gained energy, so it was solved again with more.',
    );
    expect(solvedAgainSentence(['mfem'], [77], 2)).toBe(
      '77 steps so far: at 2 iterations they gained energy, so they were solved again with more.',
    );
  });

  it('names each solver side by side by its label, and a lineup body by its name', () => {
    expect(solvedAgainSentence(['mfem', 'fem'], [3, 0], 2)).toBe(
      'Steps so far (Mixed FEM (MFEM) 3, FEM 0): at 2 iterations they gained energy, so they were ' +
        'solved again with more.',
    );
    expect(solvedAgainSentence(['bar.smfem', 'bar-fine.smfem'], [0, 2], 4)).toContain('bar-fine.smfem 2');
  });
});
