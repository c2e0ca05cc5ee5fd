// The status line's running figures: the steps the page takes a second, the share of real time
// where the motion is slowed, and a scene with contact's sleepers.
import { describe, expect, it } from 'vitest';
import { rateSentence } from '../../web/src/status.js';

describe('the rate and sleepers on the status line', () => {
  it('says the rate, the sleepers, both or nothing, each a sentence of its own', () => {
    expect(rateSentence(59.6, 0, 8)).toBe('It steps 60 times a second.');
    expect(rateSentence(30, 3, 8)).toBe('It steps 30 times a second; 3 of 8 bodies are at rest and asleep.');
    // Every body asleep since the scene opened: no step solved anything, so no rate.
    expect(rateSentence(null, 8, 8)).toBe('8 of 8 bodies are at rest and asleep.');
    expect(rateSentence(null, 0, 8)).toBe('');
    // Fewer simulated seconds than seconds of wall clock: the line says the motion is slowed.
    expect(rateSentence(7, 0, 30, 0.112)).toBe('It steps 7 times a second (slow motion: 0.11 of real time).');
    expect(rateSentence(62.5, 0, 30, 1.0)).toBe('It steps 63 times a second.');
    // Measured against the speed asked: half speed on pace says nothing; 3.1 of 4 is behind.
    expect(rateSentence(31, 0, 1, 0.5, 0.5)).toBe('It steps 31 times a second.');
    expect(rateSentence(196, 0, 1, 3.11, 4)).toBe(
      'It steps 196 times a second (3.11 of real time, behind the speed asked).',
    );
  });
});
