// EigenFit's page scene in headless Chromium (production build): the bar baked at three
// resolutions, one simulator each in lockstep, labelled on the canvas with its mesh and whether
// it is fitted; the EigenFit checkbox acts on all three; a drag holds every body at the same
// place. (That the fitted bodies swing together is tested under Node: eigenfit-lineup.test.js.)
// The material models lineup: one beam under each model, labelled with it. Also the embedded
// page: the canvas with minimal controls, without the title, description or report link.
import { readFileSync } from 'node:fs';
import { Box3, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { sideBySideSpacing } from '../../web/src/render/SideBySideStage.js';
import { waitUntilReady, withPage } from './chromium.js';
import { artifacts, servedDist } from './served-dist.js';

const served = servedDist();
// The bar's box, from its recipe (every body of the lineup is the same box).
const { box } = JSON.parse(
  readFileSync(new URL('../../assets/scenes/eigenfit/bar.json', import.meta.url)),
).geometry;
const low = box.center.map((c, i) => c - box.half_extents[i]);
const high = box.center.map((c, i) => c + box.half_extents[i]);
const statusOf = (page) => page.evaluate(() => window.smfem.status);

describe('the EigenFit lineup', () => {
  it('runs three resolutions side by side, labelled, with one EigenFit switch for all', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=eigenfit&paused=1&mode=999`,
      async ({ page, errors }) => {
        const status = await waitUntilReady(page);
        expect(status.solvers).toHaveLength(3);
        // A mode beyond the bodies' is said and bounded, as on a body's page (it drew none).
        expect(status.notices).toEqual([
          expect.stringMatching(/^mode=999: this scene has \d+ modes; mode \d+ is shown\.$/),
        ]);
        for (const name of status.solvers) expect(name).toMatch(/^mfem-\d+-tets$/);
        const tets = status.solvers.map((name) => Number(name.split('-')[1]));
        expect(tets[0]).toBeLessThan(tets[1]);
        expect(tets[1]).toBeLessThan(tets[2]);
        expect(status.labels).toEqual(tets.map((n) => `${n.toLocaleString('en-US')} tets, EigenFit on`));
        // Already side by side: no side-by-side switch.
        expect(await page.locator('#compare').count()).toBe(0);
        const fit = page.locator('#eigenfit');
        expect(await fit.isChecked()).toBe(true);

        await page.click('#play');
        await expect
          .poll(async () => (await statusOf(page)).simTime, { timeout: 20000 })
          .toBeGreaterThan(0.3);
        await page.locator('#view').screenshot({ path: `${artifacts}/lineup-eigenfit.png` });

        await fit.uncheck();
        await expect
          .poll(async () => (await statusOf(page)).labels, { timeout: 20000 })
          .toEqual(tets.map((n) => `${n.toLocaleString('en-US')} tets, EigenFit off`));
        expect(new URL(page.url()).searchParams.get('scene')).toBe('eigenfit');
        expect((await statusOf(page)).lastError).toBeNull();
        expect(errors).toEqual([]);
      },
    );
  });

  it('a drag on one bar pulls all three', async () => {
    // Weightless: the bars move only if the drag pulls them.
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=eigenfit&g=0&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        // Each bar's free end on the screen (the bar spans x 0 to 0.6 of its own frame; the
        // stage spaces the three along x), and a picture around each.
        const spacing = sideBySideSpacing(new Box3(new Vector3(...low), new Vector3(...high)));
        const ends = await Promise.all(
          [-1, 0, 1].map((i) => page.evaluate((x) => window.smfem.project([x, 0, 0.03]), 0.58 + i * spacing)),
        );
        const around = ({ x, y }) =>
          page.screenshot({ clip: { x: x - 40, y: y - 60, width: 80, height: 100 } });
        const before = await Promise.all(ends.map(around));
        const [, middle] = ends;
        await page.mouse.move(middle.x, middle.y);
        await page.mouse.down();
        expect(await page.evaluate(() => window.smfem.status.dragging)).toBe(true);
        // Play from the keyboard: the mouse button stays down, holding the bar.
        await page.focus('#play');
        await page.keyboard.press('Space');
        for (let i = 1; i <= 10; i++) await page.mouse.move(middle.x, middle.y - 4 * i);
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.simTime), { timeout: 20000 })
          .toBeGreaterThan(0.5);
        const after = await Promise.all(ends.map(around));
        await page.screenshot({ path: `${artifacts}/lineup-drag.png` });
        await page.mouse.up();
        for (let i = 0; i < 3; i++) expect(after[i].equals(before[i]), `bar ${i}`).toBe(false);
        expect(errors).toEqual([]);
      },
    );
  });
});

describe('the material models lineup', () => {
  it('runs one beam under each material model side by side, labelled, with no model to choose', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=material-models&paused=1&g=-30`,
      async ({ page, errors }) => {
        const status = await waitUntilReady(page);
        expect(status.solvers).toEqual(['mfem-arap', 'mfem-fixed_corotational', 'mfem-stable_neo_hookean']);
        expect(status.labels).toEqual(['ARAP', 'Fixed corotational', 'Stable neo-Hookean']);
        // Each body has its model: the panel offers no choice of one, nor a side-by-side switch.
        expect(await page.locator('#material-model').count()).toBe(0);
        expect(await page.locator('#compare').count()).toBe(0);
        await page.click('#play');
        await expect
          .poll(async () => (await statusOf(page)).simTime, { timeout: 20000 })
          .toBeGreaterThan(0.5);
        await page.locator('#view').screenshot({ path: `${artifacts}/lineup-material-models.png` });
        // Gravity reaches all three (the first body sags), and the labels stay.
        expect((await statusOf(page)).motion.elastic).toBeGreaterThan(0);
        expect((await statusOf(page)).labels).toEqual(['ARAP', 'Fixed corotational', 'Stable neo-Hookean']);
        expect(errors).toEqual([]);
      },
    );
  });
});

describe('the embedded page', () => {
  it('keeps the canvas, the play controls and the legend, not the title, description, report link, other scenes or Your model', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=crab&paused=1&embed=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        for (const shown of ['#view', '#play', '#legend'])
          expect(await page.locator(shown).isVisible(), shown).toBe(true);
        for (const hidden of ['#panel h1', '#description', '#figure-link', '#scene-select', '#your-model'])
          expect(await page.locator(hidden).isVisible(), hidden).toBe(false);
        expect(errors).toEqual([]);
      },
    );
  });
});
