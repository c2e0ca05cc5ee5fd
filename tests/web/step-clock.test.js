import { describe, expect, it } from 'vitest';
import { StepClock } from '../../web/src/sim/StepClock.js';

// Runs the clock at a display rate for a while, its steps free; returns the steps taken.
function run(clock, hz, seconds) {
  clock.observed(0, 1);
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
    clock.observed(0, 1);
    clock.tick(0);
    expect(clock.tick(30)).toBe(5);
    expect(clock.tick(30.01)).toBe(1);
  });

  it('asks no more steps than fit the batch budget at the measured step cost', () => {
    // A time step of 1e-5 s owes 10,000 steps in 0.1 s; at 11 ms a step that was 110 s.
    const clock = new StepClock({ timestep: 1e-5, batchBudget: 0.05 });
    clock.tick(0);
    expect(clock.tick(0.1)).toBe(1); // unmeasured: one step, to measure
    clock.observed(0.11, 10); // 11 ms a step
    clock.tick(1);
    expect(clock.tick(1.1)).toBe(4);
    expect(clock.tick(1.2)).toBe(4); // nothing owed carried over: slower than real time
    clock.observed(0.001, 100); // fast again: real time
    clock.tick(2);
    expect(clock.tick(2 + 1 / 60)).toBe(1666);
  });

  it('starts afresh after restart()', () => {
    const clock = new StepClock({ timestep: 0.01 });
    clock.observed(0, 1);
    clock.tick(0);
    clock.restart();
    expect(clock.tick(100)).toBe(0);
    expect(clock.tick(100.02)).toBe(2);
  });
});
