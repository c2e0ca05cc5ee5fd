import { describe, expect, it } from 'vitest';
import { StepClock } from '../../web/src/sim/StepClock.js';

// Runs the clock at a display rate for a while; returns the steps taken.
function run(clock, hz, seconds) {
  let steps = 0;
  for (let frame = 0; frame <= Math.round(seconds * hz); frame++) steps += clock.tick(frame / hz);
  return steps;
}

describe('StepClock', () => {
  it('takes the same number of steps per simulated second at 30, 60 and 144 Hz', () => {
    for (const hz of [30, 60, 144]) {
      const steps = run(new StepClock({ timestep: 1 / 60 }), hz, 2);
      expect(Math.abs(steps - 120)).toBeLessThanOrEqual(1);
    }
  });

  it('scales with speed', () => {
    expect(Math.abs(run(new StepClock({ timestep: 0.01, speed: 0.5 }), 60, 2) - 100)).toBeLessThanOrEqual(1);
  });

  it('caps the catch-up after a long pause', () => {
    const clock = new StepClock({ timestep: 0.01, maxCatchUp: 0.05 });
    clock.tick(0);
    expect(clock.tick(30)).toBe(5);
    expect(clock.tick(30.01)).toBe(1);
  });

  it('starts afresh after restart()', () => {
    const clock = new StepClock({ timestep: 0.01 });
    clock.tick(0);
    clock.restart();
    expect(clock.tick(100)).toBe(0);
    expect(clock.tick(100.02)).toBe(2);
  });
});
