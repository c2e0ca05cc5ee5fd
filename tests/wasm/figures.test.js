// `npx smfem figures --quick` (wasm/js/report/): the report is written whole, every chart's data
// is there and sane (read from its Vega-Lite specification, not its pixels), and each claim
// holds with margins taken from the measurements, so a solver regression fails here. The command
// refuses a folder of the user's that holds files.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSmfem } from '../../wasm/js/loader.js';
import { runFigures } from '../../wasm/js/report/figures.js';

describe('smfem figures --quick', () => {
  let smfem, folder, sections;
  const section = (id) => sections.find((s) => s.id === id);

  beforeAll(async () => {
    smfem = await loadSmfem({ build: 'threads', tools: true });
    folder = await mkdtemp(join(tmpdir(), 'smfem-figures-test-'));
    ({ sections } = await runFigures(smfem, { out: folder, quick: true }));
  }, 300000);

  afterAll(async () => {
    smfem?.dispose();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('writes the page, the markdown, every chart and the raw data', async () => {
    const html = await readFile(join(folder, 'index.html'), 'utf8');
    const markdown = await readFile(join(folder, 'report.md'), 'utf8');
    for (const s of sections) {
      expect(html).toContain(`<section id="${s.id}">`);
      expect(markdown).toContain(`## ${s.title}`);
      expect(s.finding).toMatch(/\d/);
    }
    const charts = await readdir(join(folder, 'charts'));
    const chartCount = sections.reduce((n, s) => n + (s.charts?.length ?? 0), 0);
    expect(charts.filter((f) => f.endsWith('.svg'))).toHaveLength(chartCount);
    expect(charts.filter((f) => f.endsWith('.vl.json'))).toHaveLength(chartCount);
    expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(chartCount);
    for (const file of await readdir(join(folder, 'data'))) {
      const lines = (await readFile(join(folder, 'data', file), 'utf8')).trim().split('\n');
      expect(lines.length, file).toBeGreaterThan(1);
    }
  });

  it('plots finite values with labelled axes and the expected series', async () => {
    const expectedSeries = {
      'fig2-13-1': 6, // crab: converged and five truncated runs
      'fig2-13-2': 5, // pendulum: converged and four truncated runs
      'fig5-1': 3, // the three subspaces: residual of the turn
      'fig5-2': 3, // and its volume change
      'fig5-3': 4, // the three subspaces baked (k-means and NNLS panels) and the full space
      'fig5-4': 4, // the three subspaces and the full space
      'fig9-1': 3, // FEM and both MFEM variants (octobot)
      'fig9-2': 3, // (crab)
      'fig14-1': 4, // k-means per region and over the whole body, NNLS and the exact reference
      'fig15-1': 3, // the material models
      'table1-fig10-1': 6, // the phases
    };
    for (const [id, count] of Object.entries(expectedSeries)) {
      const spec = JSON.parse(await readFile(join(folder, 'charts', `${id}.vl.json`), 'utf8'));
      const encoding = (spec.spec ?? spec).encoding;
      const layered = encoding.color ? encoding : { ...encoding, ...(spec.spec ?? spec).layer[0].encoding };
      expect(layered.x.title, id).toMatch(/\w/);
      expect(layered.y.title, id).toMatch(/\w/);
      const values = spec.data.values;
      expect(values.length, id).toBeGreaterThanOrEqual(count);
      expect(new Set(values.map((v) => v[layered.color.field])).size, id).toBe(count);
      for (const field of [layered.x.field, layered.y.field].filter((f) => typeof values[0][f] === 'number'))
        expect(
          values.every((v) => Number.isFinite(v[field])),
          `${id}: ${field}`,
        ).toBe(true);
    }
  });

  it('draws the m x |C| grids with a cell per pair and finite values', async () => {
    for (const id of ['fig11-1', 'fig11-2']) {
      const spec = JSON.parse(await readFile(join(folder, 'charts', `${id}.vl.json`), 'utf8'));
      const { x, y } = spec.encoding;
      const { color } = spec.layer[0].encoding;
      expect(
        [x.title, y.title, color.title].every((t) => /\w/.test(t)),
        id,
      ).toBe(true);
      expect(spec.data.values, id).toHaveLength(2 * 3); // quick: m 4, 16 x |C| 10, 80, 320
      expect(
        spec.data.values.every((v) => Number.isFinite(v[color.field]) && v[color.field] > 0),
        id,
      ).toBe(true);
    }
  });

  it('Fig. 11: many modes on few cubature tets go wrong; |C| = 20 m does not', () => {
    // Measured: m 4: 5.5 at |C| 10, 0.22 at 80; m 16: 380 at |C| 10, 0.23 at 320.
    const cell = (m, c) =>
      section('fig11').measurements.study.runs.find((r) => r.modes === m && r.cubature === c);
    expect(cell(16, 10).error).toBeGreaterThan(10);
    expect(cell(16, 320).error).toBeLessThan(0.5);
    expect(cell(4, 80).error).toBeLessThan(0.5);
    // And the cost grows with both (measured: m 4 0.054 ms at |C| 10, 1.2 at 320; m 16 0.51 and
    // 3.0 ms).
    expect(cell(16, 320).ms_per_iteration).toBeGreaterThan(5 * cell(4, 10).ms_per_iteration);
    expect(cell(4, 320).ms_per_iteration).toBeGreaterThan(cell(4, 10).ms_per_iteration);
    expect(section('fig11').measurements.study.full.converged).toBe(true);
    expect(section('fig11').holds).toBe(true);
  });

  it('Fig. 2 and 13: MFEM keeps the crab’s and the pendulum’s angular momentum at 1-2 iterations where FEM loses it', () => {
    // Measured: MFEM 0.5 % and 0.0 %, FEM 59.5 % and 26.0 %, FEM at 4 iterations 2.1 %.
    const { errors } = section('fig2-13').measurements.crab;
    expect(errors['MFEM, 1 iteration']).toBeLessThan(0.05);
    expect(errors['MFEM, 2 iterations']).toBeLessThan(0.05);
    expect(errors['FEM, 1 iteration']).toBeGreaterThan(0.3);
    expect(errors['FEM, 2 iterations']).toBeGreaterThan(0.15);
    // Fig. 13, measured: the pendulum 1 s after its release, MFEM 7.7 % and 0.2 %, FEM 57.1 % and
    // 24.2 %.
    const pendulum = section('fig2-13').measurements.pendulum.errors;
    expect(pendulum['MFEM, 1 iteration']).toBeLessThan(0.15);
    expect(pendulum['MFEM, 2 iterations']).toBeLessThan(0.02);
    expect(pendulum['FEM, 1 iteration']).toBeGreaterThan(0.3);
    expect(pendulum['FEM, 2 iterations']).toBeGreaterThan(0.12);
    expect(section('fig2-13').holds).toBe(true);
  });

  it('Fig. 5: skinning eigenmodes hold a rigid turn; linear modes and modal derivatives do not', () => {
    // Measured at 90 degrees: skinning 1e-13, linear modes 0.17 (volume +56 %), modal
    // derivatives 0.042 (volume -10 %).
    const { rotation } = section('fig5').measurements;
    const at = (basis, angle) => rotation.find((r) => r.basis === basis && r.angle_deg === angle);
    for (const angle of [90, 180]) expect(at('skinning eigenmodes', angle).residual).toBeLessThan(1e-9);
    expect(at('linear modes', 90).residual).toBeGreaterThan(0.08);
    expect(Math.abs(at('linear modes', 90).volume_change)).toBeGreaterThan(0.2);
    expect(at('modal derivatives', 90).residual).toBeGreaterThan(0.02);
    expect(section('fig5').holds).toBe(true);
  });

  it('Fig. 5: baked with 40 cubature tets, the skinning subspace keeps its exact sag; the displacement bases do not', () => {
    // Measured (centroid drop against the same subspace's exact integration, 10 steps): k-means
    // skinning +7 %, linear +34 %, modal derivatives +214 %; NNLS +9 %, +43 %, +28 %.
    const { baked } = section('fig5').measurements;
    const error = (basis, cubature) => {
      const run = baked.find((r) => r.basis === basis && r.cubature === cubature);
      return Math.abs(run.drop / run.exactDrop - 1);
    };
    for (const cubature of ['k-means', 'NNLS']) {
      expect(error('skinning eigenmodes', cubature), cubature).toBeLessThan(0.15);
      expect(error('linear modes', cubature), cubature).toBeGreaterThan(0.2);
      expect(error('modal derivatives', cubature), cubature).toBeGreaterThan(0.15);
    }
    expect(error('modal derivatives', 'k-means')).toBeGreaterThan(1);
    expect(error('modal derivatives', 'NNLS')).toBeLessThan(0.6);
    expect(baked.every((run) => run.tets === 40 && run.msPerStep > 0)).toBe(true);
  });

  it('Fig. 9: at a stiffness ratio of 1e6 MFEM converges within 5 iterations on the octobot and 10 on the crab, FEM needs more than 30 on the crab', () => {
    // Measured (MFEM curvature / paper / FEM): octobot at 1e2 3 / 5 / 5, at 1e6 3 / 5 / 21; crab
    // at 1e2 4 / 7 / 8, at 1e6 8 / 15 / > 30 (> 30 / 15 / > 30 while a shifted indefinite system
    // counted as definite: mfem_step.cpp, kRoundingShiftsDouble). The octobot's FEM and paper
    // counts at 1e6 depend on the machine that baked it: a bake by the same code on an AVX-512
    // machine (2026-11-28) gives 3 / 22 / 5 there, and an AVX2-only build of the bake 3 / 5 / 5
    // (the crab then > 30 / 15 / > 30), so they are reported, not asserted (docs/report.md). The
    // crab's MFEM count at 1e6 was 6-9 on 18 bakes with other k-means seeds, native and wasm
    // (2026-12-05, docs/claim.md "The bake's seed").
    const { counts } = section('fig9').measurements;
    const at = (scene, ratio) => counts.find((c) => c.scene === scene && c.ratio === ratio);
    expect(at('octobot', 1e2)['MFEM (curvature)']).toBeLessThanOrEqual(5);
    expect(at('octobot', 1e2).FEM).toBeLessThanOrEqual(8);
    expect(at('octobot', 1e6)['MFEM (curvature)']).toBeLessThanOrEqual(5);
    expect(at('octobot', 1e6)['MFEM (curvature)']).toBeLessThan(at('octobot', 1e6).FEM);
    expect(at('crab', 1e6).FEM).toBe(Infinity);
    expect(at('crab', 1e2)['MFEM (curvature)']).toBeLessThanOrEqual(6);
    expect(at('crab', 1e6)['MFEM (curvature)']).toBeLessThanOrEqual(10);
    expect(at('crab', 1e6)['MFEM (paper)']).toBeLessThan(at('crab', 1e6).FEM);
    expect(section('fig9').holds).toBe(true);
  });

  it('Fig. 14: fewer clusters soften the beam, and five leave it falling; per region softens less', () => {
    // Measured: exact 3.56 cm; k-means per region |C| 20 +973 %, |C| 100 +119 %, |C| 5 never at
    // rest; k-means over the whole body (the paper's) |C| 20 +1415 %; NNLS per region |C| 20
    // +906 %.
    const { exact, results } = section('fig14').measurements;
    expect(exact.settled).toBe(true);
    const ours = results.filter((r) => /per region/.test(r.method));
    const at = (cubature) => ours.find((r) => r.cubature === cubature);
    const whole = results.find((r) => /whole body/.test(r.method));
    const nnls = results.find((r) => /NNLS/.test(r.method));
    expect(nnls.settled).toBe(true);
    expect(nnls.excess).toBeGreaterThan(0.5);
    expect(at(5).settled).toBe(false);
    expect(at(20).excess).toBeGreaterThan(5);
    expect(at(100).excess).toBeGreaterThan(0.5);
    expect(at(100).excess).toBeLessThan(4);
    expect(whole.cubature).toBe(20);
    expect(whole.settled).toBe(true);
    expect(at(20).excess).toBeLessThan(0.85 * whole.excess);
    expect(section('fig14').measurements.tau).toBeLessThanOrEqual(-0.6);
    expect(section('fig14').holds).toBe(true);
  });

  it('Fig. 15: every material model comes to rest; FCR and stable neo-Hookean agree, ARAP sags more', () => {
    // Measured at gravity x 10 (the beam baked with NNLS and EigenFit since 2026-12-07): ARAP
    // 54.9 cm, FCR 49.3 cm, stable neo-Hookean 49.8 cm (before: 57.2, 45.5 and 45.7).
    const tip = Object.fromEntries(section('fig15').measurements.results.map((r) => [r.model, r.tip]));
    expect(section('fig15').measurements.results.every((r) => r.settled)).toBe(true);
    expect(Math.abs(tip['Fixed corotational'] / tip['Stable neo-Hookean'] - 1)).toBeLessThan(0.02);
    expect(tip.ARAP).toBeLessThan(1.1 * tip['Fixed corotational']);
  });

  it('Table 1: every timing is measured (the speed claims are the benchmarks’, not a timed test’s)', () => {
    for (const row of section('table1-fig10').measurements.rows) {
      for (const key of ['mfemWasm', 'femWasm', 'mfemNative', 'femNative', 'projection'])
        expect(row[key], `${row.scene} ${key}`).toBeGreaterThan(0);
      expect(row.failedSteps).toBe(0);
    }
  });
});

describe('smfem figures --out', () => {
  it('refuses a folder that holds files of yours, and leaves them as they were', async () => {
    const cli = fileURLToPath(new URL('../../wasm/js/cli.js', import.meta.url));
    const folder = await mkdtemp(join(tmpdir(), 'smfem-figures-out-'));
    try {
      await writeFile(join(folder, 'index.html'), 'your page');
      await expect(
        promisify(execFile)(process.execPath, [cli, 'figures', '--out', folder, '--quick']),
      ).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining(`--out ${folder}: the folder is not empty`),
      });
      expect(await readdir(folder)).toEqual(['index.html']);
      expect(await readFile(join(folder, 'index.html'), 'utf8')).toBe('your page');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
