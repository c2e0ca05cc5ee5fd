// "Your model" in headless Chromium (production build, threaded): a user's mesh picked with the
// file input is baked in the page's worker (the bake's own wasm module), opens as the scene
// "custom" and falls at g as the gallery's bodies do; a tet mesh the same; a file that is not a
// mesh gets a notice naming the problem; Cancel ends a bake and the page runs on; ?asset=URL
// opens a hosted asset and keeps it in the page's URL, and says why where it cannot.
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pause, waitUntilReady, withPage } from './chromium.js';
import { servedDist } from './served-dist.js';
import { boxObj, gridTets, medit } from '../wasm/test_meshes.js';

const served = servedDist();
const status = (page) => page.evaluate(() => window.smfem.status);

// Picks files in the "Your model" input and waits for the bake to finish (or fail).
async function pick(page, files) {
  // The last bake's report stays until the new bake's first one replaces it.
  await page.evaluate(() => (window.lastBake = window.smfem.status.bake));
  await page.setInputFiles(
    '#your-model-input',
    files.map(({ name, text }) => ({
      name,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(text),
    })),
  );
  await page.waitForFunction(
    () => {
      const bake = window.smfem.status.bake;
      return bake !== window.lastBake && (['done', 'cancelled'].includes(bake?.stage) || bake?.error);
    },
    null,
    { timeout: 60000 },
  );
  return (await status(page)).bake;
}

// Plays until the simulated time passes `after` s, pauses, and waits for the last step to be
// drawn: [time, the body's centroid height].
async function playUntil(page, after) {
  await page.click('#play');
  await expect.poll(async () => (await status(page)).simTime, { timeout: 30000 }).toBeGreaterThan(after);
  await pause(page);
  const { simTime, motion } = await status(page);
  return [simTime, motion.centroid[1]];
}

describe('your own model', () => {
  it('bakes a picked surface mesh and a tet mesh in the page, and each falls at g', async () => {
    await withPage(served.browser.context, `${served.server.url}?paused=1`, async ({ page, errors }) => {
      await waitUntilReady(page);
      for (const files of [
        [{ name: 'box.obj', text: boxObj([0.3, 0.1, 0.1]) }],
        [{ name: 'bar.mesh', text: medit(gridTets(8, 2, 2, 0.04)) }],
      ]) {
        const name = files[0].name;
        const bake = await pick(page, files);
        expect(bake.error, name).toBeNull();
        expect(bake.stage).toBe('done');
        expect(bake.tets).toBeGreaterThan(20);
        await page.waitForFunction(() => window.smfem.status.scene === 'custom' && window.smfem.status.ready);
        // Nothing below it collides (the floor is drawn for reference): between two times it
        // falls g (t2^2 - t1^2) / 2 from rest at t = 0 (implicit Euler at 60 steps a second lags
        // free fall by about a step).
        const [t1, y1] = await playUntil(page, 0.2);
        const [t2, y2] = await playUntil(page, 0.6);
        const free = 0.5 * 9.8 * (t2 ** 2 - t1 ** 2);
        expect((y1 - y2) / free, name).toBeGreaterThan(0.9);
        expect((y1 - y2) / free, name).toBeLessThan(1.02);
      }
      expect(errors).toEqual([]);
    });
  }, 180000);

  it('says what is wrong with a model it cannot bake, and Cancel ends a bake', async () => {
    await withPage(served.browser.context, `${served.server.url}?paused=1`, async ({ page, errors }) => {
      await waitUntilReady(page);
      const refused = async (files, words) => {
        const bake = await pick(page, files);
        expect(bake.error).toContain(words);
        expect((await status(page)).notices.at(-1)).toContain(words);
      };
      await refused([{ name: 'notes.txt', text: 'hello' }], 'not a model the bake reads');
      await refused(
        [{ name: 'bad.obj', text: 'v 0 0 0\nf 1 2 3\n' }],
        'bad.obj:2: f: vertex index 2 out of range',
      );
      // 28 vertices cannot carry the default 16 modes: the bake says how many they can.
      await refused(
        [{ name: 'thin.mesh', text: medit(gridTets(6, 1, 1, 0.05)) }],
        'bake with --modes 7 or fewer',
      );

      // Cancelled while it computes the eigenmodes; the scene that was open runs on.
      const before = (await status(page)).scene;
      await page.evaluate(() => (window.lastBake = window.smfem.status.bake));
      await page.setInputFiles('#your-model-input', {
        name: 'box.obj',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(boxObj([0.3, 0.2, 0.2])),
      });
      await page.waitForFunction(
        () => window.smfem.status.bake !== window.lastBake && window.smfem.status.bake.stage !== 'load',
      );
      await page.click('#bake-cancel');
      await expect.poll(async () => (await status(page)).bake.stage).toBe('cancelled');
      expect((await status(page)).scene).toBe(before);
      const [t1] = await playUntil(page, 0.1);
      expect(t1).toBeGreaterThan(0.1);
      expect(errors).toEqual([]);
    });
  }, 180000);

  it('opens a hosted asset from ?asset=URL, keeps it in the URL, and says why a missing one fails', async () => {
    const dist = fileURLToPath(new URL('../../dist/assets/', import.meta.url));
    const crab = (await readdir(dist)).find((file) => /^crab-.*\.smfem$/.test(file));
    await withPage(
      served.browser.context,
      `${served.server.url}?asset=assets/${crab}&iters=3&paused=1`,
      async ({ page, errors }) => {
        const ready = await waitUntilReady(page);
        expect(ready.scene).toBe('custom');
        expect(ready.solvers.length).toBe(1);
        const [time] = await playUntil(page, 0.1);
        expect(time).toBeGreaterThan(0.1);
        const search = new URLSearchParams(await page.evaluate(() => location.search));
        expect(search.get('asset')).toBe(`assets/${crab}`);
        expect(search.get('iters')).toBe('3');
        expect(errors).toEqual([]);
      },
    );
    await withPage(
      served.browser.context,
      `${served.server.url}?asset=assets/missing.smfem`,
      async ({ page }) => {
        const ready = await waitUntilReady(page);
        expect(ready.scene).not.toBe('custom');
        expect(ready.notices.at(-1)).toContain('asset=assets/missing.smfem could not be opened');
        expect(ready.notices.at(-1)).toContain('404');
      },
    );
  }, 120000);

  it('bakes again with painted regions, other modes and cubature, and the lowest points pinned', async () => {
    await withPage(served.browser.context, `${served.server.url}?paused=1`, async ({ page, errors }) => {
      await waitUntilReady(page);
      await expect(page.evaluate(() => window.smfem.paintRegion([0, 0, 0], 0.1, 1e4))).rejects.toThrow(
        'pick a model first',
      );
      const bar = [{ name: 'bar.mesh', text: medit(gridTets(16, 2, 2, 0.025)) }];
      const first = await pick(page, bar);
      expect([first.stage, first.modes, first.pinned]).toEqual(['done', 16, 0]);
      // The bake's own choices fill the options.
      expect(await page.inputValue('#bake-modes')).toBe('16');
      expect(await page.inputValue('#bake-cubature')).toBe(String(first.cubature));
      await expect(page.evaluate(() => window.smfem.paintRegion([0, 0], 0.1, 1e4))).rejects.toThrow(
        'expected a centre',
      );
      // The far half 100 times softer than the default 1 MPa; 8 modes, 100 cubature tets, and
      // the bar's bottom face pinned.
      expect(await page.evaluate(() => window.smfem.paintRegion([0.4, 0.025, 0.025], 0.2, 1e4))).toBe(1);
      expect(await page.textContent('#bake-again')).toBe('Bake again with 1 painted region');
      await page.fill('#bake-modes', '8');
      await page.fill('#bake-cubature', '100');
      await page.check('#bake-pin-lowest');
      await page.evaluate(() => (window.lastBake = window.smfem.status.bake));
      await page.click('#bake-again');
      await page.waitForFunction(
        () => window.smfem.status.bake !== window.lastBake && window.smfem.status.bake.stage === 'done',
        null,
        { timeout: 60000 },
      );
      const again = (await status(page)).bake;
      expect([again.modes, again.cubature]).toEqual([8, 100]);
      expect(again.pinned).toBe(17 * 3); // the 17 x 3 vertices of the bottom face (y = 0)
      await page.waitForFunction(() => window.smfem.status.scene === 'custom' && window.smfem.status.ready);
      // The legend names the painted material; pinned, the bar no longer falls.
      await expect.poll(() => page.locator('#legend').textContent()).toContain('painted 1');
      const [t1, y1] = await playUntil(page, 0.1);
      const [t2, y2] = await playUntil(page, 0.5);
      expect(Math.abs(y2 - y1)).toBeLessThan(0.01 * 0.5 * 9.8 * (t2 ** 2 - t1 ** 2));
      expect(errors).toEqual([]);
    });
  }, 120000);
});
