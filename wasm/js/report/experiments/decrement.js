// Subspace MFEM (Trusty et al. 2023), Fig. 9: the Newton decrement of each iteration of one step
// from a deformed start, FEM against both MFEM variants, as the stiff region's Young's modulus
// grows against the soft one's (the C++ claims module's convergence study: smfem.convergenceStudy).
import { lineChart } from '../chart.js';

const solvers = { fem: 'FEM', 'mfem-paper': 'MFEM (paper)', 'mfem-curvature': 'MFEM (curvature)' };
const colors = { FEM: '#d95f02', 'MFEM (paper)': '#7570b3', 'MFEM (curvature)': '#1b9e77' };

// The octobot is the paper's scene (a stiff core in a soft body, two legs pulled and let go); the
// crab (shell against knees) and the claims suite's chain (stiff links on soft joints) are
// scenes of ours chosen to test the claim beyond it. The verdict is the paper's scene's; the
// others are reported beside it, where they lose too.
const scenes = [
  { name: 'octobot', asset: 'octobot.smfem', region: 'core', quick: true, paper: true },
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
  // The claim is about large heterogeneity: ratios of 1e4 and above. MFEM here means our
  // variant (curvature); the paper's variant is reported beside it.
  const wins = (c) => c['MFEM (curvature)'] < c.FEM;
  const large = counts.filter((c) => c.ratio >= 1e4);
  const onPaperScene = large.filter((c) => scenes.find((s) => s.name === c.scene).paper);
  const losses = large.filter((c) => !wins(c));
  const holds = !onPaperScene.every(wins) ? false : losses.length === 0 ? true : 'partly';
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
      .join('; ')}.${
      losses.length
        ? ` At ratios of 1e4 and above our MFEM does not converge in fewer iterations than FEM on ${losses
            .map((c) => `${c.scene} at ${c.ratio.toExponential(0)}`)
            .join(', ')}.`
        : ''
    }`,
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
      "The octobot is the paper's scene (its core against its body); the crab (shell against knees) and the chain of the claims suite (links against joints) are ours, to try the claim where it was not shown. Each study scales the stiff region's Young's modulus to the ratio times the softest other region's, loads the body with converged steps, then runs one step of k iterations for every k; converged means the decrement fell below what double precision resolves.",
      "MFEM (paper) is the paper's mixed step; MFEM (curvature) is ours, which adds the constraint's curvature (the solver the page runs).",
    ],
    measurements: { counts },
  };
}
