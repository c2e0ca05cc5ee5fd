// The page on a phone (390 x 844, touch) in headless Chromium: the panel folded at first and
// unfolded by a tap, every control at least 44 px tall, nothing wider than the screen, the body
// in view, and a scene that runs.
import { describe, expect, it } from 'vitest';
import { waitUntilReady, withPage } from './chromium.js';
import { nonBackgroundFraction } from './screenshots.js';
import { artifacts, servedDist } from './served-dist.js';

const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const served = servedDist(phone);

describe('on a phone', () => {
  it('folds the panel away at first, unfolds it by a tap, with controls a finger can hit', async () => {
    // Opened paused, so the tap on Play at the end is what starts it.
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=crab&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        const toggle = page.locator('#panel-toggle');
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        expect(await page.locator('#panel-body').isHidden()).toBe(true);
        // Folded, the panel leaves most of the screen to the body.
        const folded = await page.locator('#panel').boundingBox();
        expect(folded.height).toBeLessThan(0.25 * 844);
        expect((await toggle.boundingBox()).height).toBeGreaterThanOrEqual(44);
        const view = await page.locator('#view').screenshot({ path: `${artifacts}/phone-folded.png` });
        expect(await nonBackgroundFraction(page, view)).toBeGreaterThan(0.02);

        await toggle.tap();
        expect(await toggle.getAttribute('aria-expanded')).toBe('true');
        await page.screenshot({ path: `${artifacts}/phone-unfolded.png` });
        for (const selector of ['#play', '#step', '#reset', '#solver', '#scene-select']) {
          expect((await page.locator(selector).boundingBox()).height, selector).toBeGreaterThanOrEqual(44);
        }
        // Every other control the panel shows: sliders, buttons, selects and the rows that hold a
        // checkbox (the row is what a finger hits: its label toggles the box).
        const targets = await page.evaluate(() =>
          [
            ...document.querySelectorAll(
              '#panel-body button, #panel-body select, #panel-body summary, #panel-body input',
            ),
          ]
            .filter((e) => e.offsetParent !== null && e.type !== 'hidden')
            .map((e) => {
              const target = e.type === 'checkbox' ? (e.closest('label, .toggle') ?? e) : e;
              return {
                name: e.id || e.name || e.textContent.trim() || e.type,
                height: target.getBoundingClientRect().height,
              };
            }),
        );
        expect(targets.length).toBeGreaterThan(8);
        for (const { name, height } of targets) expect(height, name).toBeGreaterThanOrEqual(44);
        const width = await page.evaluate(() => document.scrollingElement.scrollWidth);
        expect(width).toBeLessThanOrEqual(390);
        await page.locator('#play').tap();
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.simTime), { timeout: 20000 })
          .toBeGreaterThan(0.3);
        expect(errors).toEqual([]);
      },
    );
  });

  it('opens a light scene when the URL names none', async () => {
    // The crab (16 modes) took 15-20 ms a step on a phone-sized page; the beam has 5.
    await withPage(served.browser.context, `${served.server.url}?paused=1`, async ({ page, errors }) => {
      const status = await waitUntilReady(page);
      expect(status.scene).toBe('beam');
      expect(errors).toEqual([]);
    });
  });

  it('grabs the body with a finger and pulls it', async () => {
    // Running, weightless and without forces, the beam stays at rest (no elastic energy) until
    // the finger pulls it. Real touch events: the page listens to pointer events, which a touch
    // raises with pointerType 'touch'.
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=beam&g=0`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        const touch = await page.context().newCDPSession(page);
        const start = await page.evaluate(() => window.smfem.project([0.4, 0, 0.05]));
        const at = (i) => [{ x: start.x, y: start.y - 6 * i }];
        await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
        await expect.poll(() => page.evaluate(() => window.smfem.status.dragging)).toBe(true);
        for (let i = 1; i <= 10; ++i)
          await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(i) });
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.motion?.elastic ?? 0), { timeout: 20000 })
          .toBeGreaterThan(1e-9);
        await page.screenshot({ path: `${artifacts}/phone-touch-drag.png` });
        await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
        await expect.poll(() => page.evaluate(() => window.smfem.status.dragging)).toBe(false);
        expect(errors).toEqual([]);
      },
    );
  });
});
