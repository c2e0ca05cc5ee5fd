// The status line's words for a scene with contact: its rate and its sleepers.
import { describe, expect, it } from 'vitest';
import { rateSentence } from '../../web/src/status.js';

describe('the rate and sleepers on the status line', () => {
  it('says the rate, the sleepers, both or nothing, each a sentence of its own', () => {
    expect(rateSentence(59.6, 0, 8)).toBe('It steps 60 times a second.');
    expect(rateSentence(30, 3, 8)).toBe('It steps 30 times a second; 3 of 8 bodies are at rest and asleep.');
    // Every body asleep since the scene opened: no step solved anything, so no rate.
    expect(rateSentence(null, 8, 8)).toBe('8 of 8 bodies are at rest and asleep.');
    expect(rateSentence(null, 0, 8)).toBe('');
    // Fewer steps a second than the time step asks: the line says the motion is slowed.
    expect(rateSentence(7, 0, 30, 0.016)).toBe('It steps 7 times a second (slow motion: 0.11 of real time).');
    expect(rateSentence(62.5, 0, 30, 0.016)).toBe('It steps 63 times a second.');
  });
});
