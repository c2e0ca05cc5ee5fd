// Live plots, per step, of what the paper compares: kinetic energy, the magnitude of the
// angular momentum and the Newton decrement (one line per solver when side by side), and for
// shells and rods the largest edge strain (how far a stiff cloth stretches: paper 002's claim),
// with a CSV export of everything recorded. Charts by uPlot (small, fast, no dependencies).
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { solvers as pageSolvers } from '../state/urlState.js';

const quantities = [
  { key: 'kinetic', label: 'kinetic energy (J)', value: (r) => r.energy.kinetic },
  { key: 'angular', label: '|angular momentum| (kg m²/s)', value: (r) => Math.hypot(...r.angularMomentum) },
  { key: 'decrement', label: 'Newton decrement', value: (r) => r.decrement },
];
const strain = { key: 'strain', label: 'largest edge strain', value: (r) => r.maxStrain };
const colors = ['#e0785a', '#7ab8ff'];
const maxPoints = 2000; // plotted; the CSV keeps everything

export class Plots {
  constructor(root) {
    this.root = root;
    this.charts = [];
    this.rows = [];
  }

  /**
   * Starts afresh with these solvers (the page's names: one per body; the legend shows their
   * labels); `thin`: the scene is a shell or a rod, whose steps report their largest edge strain.
   */
  reset(solvers, thin = this.thin) {
    this.solvers = solvers;
    this.thin = thin;
    this.quantities = thin ? [...quantities, strain] : quantities;
    this.rows = [];
    for (const chart of this.charts) chart.destroy();
    this.root.replaceChildren();
    this.charts = this.quantities.map(({ label }) => {
      const options = {
        width: 300,
        height: 110,
        legend: { show: true, live: false },
        title: label,
        scales: { x: { time: false } },
        axes: [
          { stroke: '#b8bcc6', size: 36, label: 'time (s)', labelSize: 14 },
          { stroke: '#b8bcc6', size: 48 },
        ],
        series: [
          { label: 'time (s)' },
          ...solvers.map((solver, i) => ({
            label: pageSolvers[solver]?.label ?? solver,
            stroke: colors[i],
            width: 1.5,
          })),
        ],
      };
      return new uPlot(options, [[], ...solvers.map(() => [])], this.root);
    });
    this.dirty = false;
  }

  /** reports[i]: the steps simulator i just took. */
  record(reports) {
    for (let step = 0; step < reports[0].length; step++) {
      const row = { time: reports[0][step].time };
      reports.forEach((list, i) => {
        for (const { key, value } of this.quantities) row[`${key}_${this.solvers[i]}`] = value(list[step]);
      });
      this.rows.push(row);
    }
    this.dirty = true;
  }

  /** Redraws (at most once per animation frame, when something changed and they are shown). */
  draw() {
    if (!this.dirty || this.root.closest('details')?.open === false) return;
    this.dirty = false;
    const rows = this.rows.slice(-maxPoints);
    const times = rows.map((r) => r.time);
    this.quantities.forEach(({ key }, q) => {
      this.charts[q].setData([
        times,
        ...this.solvers.map((solver) => rows.map((r) => r[`${key}_${solver}`])),
      ]);
    });
  }

  /** Everything recorded as CSV text (one row per step, one column per quantity and solver). */
  csv() {
    const columns = ['time', ...this.quantities.flatMap(({ key }) => this.solvers.map((s) => `${key}_${s}`))];
    return [columns.join(','), ...this.rows.map((row) => columns.map((c) => row[c]).join(','))].join('\n');
  }
}
