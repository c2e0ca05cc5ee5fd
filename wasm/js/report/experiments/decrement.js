// Paper 000 Fig. 9: the Newton decrement of each iteration of one step from a deformed start,
// FEM against both MFEM variants, as the stiff region's Young's modulus grows against the soft
// one's (the C++ claims module's convergence study: smfem.convergenceStudy).
import { lineChart } from '../chart.js';

const solvers = { fem: 'FEM', 'mfem-paper': 'MFEM (paper)', 'mfem-curvature': 'MFEM (curvature)' };
const colors = { FEM: '#d95f02', 'MFEM (paper)': '#7570b3', 'MFEM (curvature)': '#1b9e77' };

// The octobot of the paper's figure was not usable when this study was written: its stiff core
// held no cubature tet (SimulatorInfo.cubatureRegions), so its modulus never reached the solver.
// The bake now samples every material region (issue 15); the octobot has not been added here.
const scenes = [
  { name: 'crab', asset: 'crab.smfem', region: 'shell', quick: true },
  { name: 'chain', asset: 'claims/chain.smfem', region: 'links', quick: false },
];

const iterationsToConverge = (list, cap) => (list.length < cap ? list.length : Infinity);

export async function decrementFigure(ctx) {
  const ratios = ctx.quick ? [1e2, 1e6] : [1e2, 1e4, 1e6];
  const cap = 30;
  const studies = [];
  for (const scene of scenes.filter((s) => !ctx.quick || s.quick)) {
    ctx.log(`Fig. 9: ${scene.name}, stiffness ratios ${ratios.join(', ')}`);
    const study = ctx.smfem.convergenceStudy(await ctx.asset(scene.asset), {
      name: scene.name,
      region: scene.region,
      ratios,
      iterations: cap,
    });
    studies.push({ ...scene, study });
  }
  const rows = studies.flatMap(({ name, study }) =>
    study.ratios.flatMap((entry) =>
      Object.entries(solvers).flatMap(([key, label]) =>
        entry[key].map((decrement, i) => ({
          scene: name,
          ratio: entry.ratio,
          solver: label,
          iteration: i + 1,
          decrement,
        })),
      ),
    ),
  );
  const counts = studies.flatMap(({ name, study }) =>
    study.ratios.map((entry) => ({
      scene: name,
      ratio: entry.ratio,
      ...Object.fromEntries(
        Object.entries(solvers).map(([key, label]) => [label, iterationsToConverge(entry[key], cap)]),
      ),
      failed: entry.failed ?? [],
    })),
  );
  const show = (n) => (Number.isFinite(n) ? String(n) : `> ${cap}`);
  // The claim is about large heterogeneity: the two largest ratios.
  const large = counts.filter((c) => c.ratio >= 1e4);
  const paperVariantLoses = large.filter((c) => c['MFEM (paper)'] > c.FEM);
  const holds = large.every((c) => c['MFEM (curvature)'] < c.FEM) && paperVariantLoses.length === 0;
  return {
    id: 'fig9',
    title: 'Fig. 9: Newton decrement per iteration against material heterogeneity',
    paperClaim:
      'From a deformed start, FEM needs many more iterations than MFEM to converge one step once the stiff region is far stiffer than the soft one; at mild ratios the two are alike.',
    finding: `Iterations to converge (MFEM curvature / MFEM paper / FEM): ${counts
      .map(
        (c) =>
          `${c.scene} at ${c.ratio.toExponential(0)}: ${show(c['MFEM (curvature)'])} / ${show(c['MFEM (paper)'])} / ${show(c.FEM)}`,
      )
      .join('; ')}.`,
    holds,
    charts: studies.map(({ name }) =>
      lineChart({
        title: `Fig. 9: ${name}, one step from a deformed start`,
        values: rows
          .filter((r) => r.scene === name)
          .map((r) => ({ ...r, ratio: `E ratio ${r.ratio.toExponential(0)}` })),
        x: { field: 'iteration', title: 'iteration' },
        y: { field: 'decrement', title: 'Newton decrement (√J)', scale: 'log' },
        series: { field: 'solver', title: 'solver', colors },
        facet: { field: 'ratio', title: 'stiff / soft Young’s modulus' },
        points: true,
      }),
    ),
    tables: [
      {
        caption: `Iterations until converged (at most ${cap})`,
        columns: ['scene', 'E ratio', ...Object.values(solvers)],
        rows: counts.map((c) => [
          c.scene,
          c.ratio.toExponential(0),
          ...Object.values(solvers).map((l) => show(c[l])),
        ]),
      },
    ],
    data: [{ name: 'decrement', rows }],
    notes: [
      "The paper uses the octobot; when this study was written our bake left its stiff core without a cubature tet, so the core's modulus never reached the solver. The per-region cubature (issue 15) now samples it, but the octobot has not been added to this study. We use the crab (shell against joints) and the claims suite's chain (stiff links on soft joints).",
    ],
    measurements: { counts },
  };
}
