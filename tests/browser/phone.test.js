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
    await withPage(served.browser.context, `${served.server.url}?scene=crab`, async ({ page, errors }) => {
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
      const width = await page.evaluate(() => document.scrollingElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      await page.locator('#play').tap();
      await expect
        .poll(() => page.evaluate(() => window.smfem.status.simTime), { timeout: 20000 })
        .toBeGreaterThan(0.3);
      expect(errors).toEqual([]);
    });
  });
});
