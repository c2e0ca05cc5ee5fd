// Whether a run has blown up without any step failing: over steps in a row that the solver
// struggled with (solved again with more iterations twice or more, or left gaining energy), the
// body's mechanical energy, the drag spring's left out (the hand's work), rose by more than
// `factor` times the kinetic and elastic energy it held before them (at least `floor` J; not
// gravity's, whose zero is wherever the scene's origin is). Converged implicit Euler steps
// cannot gain energy, and a hand does not put a thousand times a body's energy into it while its
// solver struggles. The crab at the sliders' ends (a time step of 0.1 s, 1 iteration, moduli 1e2
// and 1e13 Pa, g 30) held 0.04 J and gained 2.7e4 J in its first six steps, each solved again
// three times, then went on to 1e45 J and millions of metres, every step finite and "ok", a
// second or two each.
const mechanical = ({ energy }) => energy.total - energy.spring;
const held = ({ energy }) => energy.kinetic + energy.elastic;
const struggled = (report) => report.energyUnbalanced || report.retries >= 2;

export class RunawayWatch {
  constructor({ factor = 1000, floor = 1 } = {}) {
    this.factor = factor;
    this.floor = floor;
    this.before = null; // the last report
    this.start = null; // the report before the struggling steps in a row, or null
  }

  /** reports: the steps just taken, oldest first; true once the run has blown up. */
  blownUp(reports) {
    for (const report of reports) {
      const before = this.before;
      this.before = report;
      if (!struggled(report)) {
        this.start = null;
        continue;
      }
      this.start ??= before;
      if (this.start === null) continue; // the first step of the run: nothing to compare with
      const gain = mechanical(report) - mechanical(this.start);
      if (gain > this.factor * Math.max(held(this.start), this.floor)) return true;
    }
    return false;
  }
}
