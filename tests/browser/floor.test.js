// The ground in headless Chromium (production build): a scene whose floor is an obstacle draws
// it solid; elsewhere it is drawn see-through and the page says nothing collides with it.
import { describe, expect, it } from 'vitest';
import { waitUntilReady, withPage } from './chromium.js';
import { artifacts, servedDist } from './served-dist.js';

const served = servedDist();

describe('the floor', () => {
  it.each([
    ['crab', 'reference'],
    ['bunny-drop', 'obstacle'],
  ])('in %s is drawn as %s', async (scene, kind) => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=${scene}&paused=1`,
      async ({ page, errors }) => {
        const status = await waitUntilReady(page);
        expect(status.floor).toBe(kind);
        const text = await page.locator('#description').textContent();
        if (kind === 'reference') expect(text).toMatch(/floor is drawn for reference only/);
        else expect(text).not.toMatch(/floor is drawn for reference/);
        await page.locator('#view').screenshot({ path: `${artifacts}/floor-${scene}.png` });
        expect(errors).toEqual([]);
      },
    );
  });
});
