// Turns wall-clock time into a number of fixed-size simulation steps, so a step always
// advances the same simulated time whatever the display's refresh rate. Time owed beyond
// `maxCatchUp` seconds (a hidden tab, a slow machine) is dropped instead of replayed, and so is
// time whose steps would take the worker more than `batchBudget` seconds of wall clock at the
// step cost last measured (observed()): at a time step of 1e-5 s, 0.1 s owed is 10,000 steps, a
// batch that took minutes while the page showed nothing move. The run then goes slower than
// real time, in batches the page can show.
export class StepClock {
  constructor({ timestep, speed = 1, maxCatchUp = 0.1, batchBudget = 0.05 } = {}) {
    this.timestep = timestep;
    this.speed = speed;
    this.maxCatchUp = maxCatchUp;
    this.batchBudget = batchBudget;
    this.stepSeconds = null; // wall seconds a step took lately (null: not measured yet)
    this.owed = 0; // simulated seconds not yet stepped
    this.last = null; // wall-clock seconds of the previous tick
  }

  /** Forgets the past (after a pause): the next tick starts counting afresh. */
  restart() {
    this.owed = 0;
    this.last = null;
  }

  /** A batch of `steps` took `seconds` of wall clock. */
  observed(seconds, steps) {
    if (steps > 0 && seconds >= 0) this.stepSeconds = seconds / steps;
  }

  /** Steps to run now, given the wall clock in seconds. */
  tick(now) {
    if (this.last !== null) {
      const elapsed = Math.max(0, now - this.last) * this.speed;
      this.owed = Math.min(this.owed + elapsed, Math.max(this.maxCatchUp, this.timestep));
    }
    this.last = now;
    let steps = Math.floor(this.owed / this.timestep + 1e-9);
    // Before the first measurement, one step: it measures the cost.
    const affordable =
      this.stepSeconds === null ? 1 : Math.max(1, Math.floor(this.batchBudget / this.stepSeconds));
    if (steps > affordable) {
      steps = affordable;
      this.owed = 0; // behind real time: what was owed is not replayed
    } else {
      this.owed -= steps * this.timestep;
    }
    return steps;
  }
}
