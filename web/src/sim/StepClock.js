// Turns wall-clock time into a number of fixed-size simulation steps, so a step always
// advances the same simulated time whatever the display's refresh rate. Time owed beyond
// `maxCatchUp` seconds (a hidden tab, a slow machine) is dropped instead of replayed.
export class StepClock {
  constructor({ timestep, speed = 1, maxCatchUp = 0.1 } = {}) {
    this.timestep = timestep;
    this.speed = speed;
    this.maxCatchUp = maxCatchUp;
    this.owed = 0; // simulated seconds not yet stepped
    this.last = null; // wall-clock seconds of the previous tick
  }

  /** Forgets the past (after a pause): the next tick starts counting afresh. */
  restart() {
    this.owed = 0;
    this.last = null;
  }

  /** Steps to run now, given the wall clock in seconds. */
  tick(now) {
    if (this.last !== null) {
      const elapsed = Math.max(0, now - this.last) * this.speed;
      this.owed = Math.min(this.owed + elapsed, Math.max(this.maxCatchUp, this.timestep));
    }
    this.last = now;
    const steps = Math.floor(this.owed / this.timestep + 1e-9);
    this.owed -= steps * this.timestep;
    return steps;
  }
}
