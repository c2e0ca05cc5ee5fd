// Every scene framed whole: at a desktop window and on a phone, each corner of the box around the
// scene's bodies at rest is drawn inside the canvas, clear of the control panel (beside it on a
// desktop, below its folded bar on a phone).
import { describe, expect, it } from 'vitest';
import { waitUntilReady, withPage } from './chromium.js';
import { scenes } from '../../web/src/scenes.js';
import { servedDist } from './served-dist.js';

const sceneNames = Object.keys(scenes);

// The corners of the framed box where they are drawn, and the rectangle they must stay in.
async function framing(page) {
  return page.evaluate(() => {
    const [min, max] = window.smfem.framedBox();
    const corners = [];
    for (let k = 0; k < 8; k++) {
      corners.push(
        window.smfem.project([k & 1 ? max[0] : min[0], k & 2 ? max[1] : min[1], k & 4 ? max[2] : min[2]]),
      );
    }
    const canvas = document.getElementById('view').getBoundingClientRect();
    const panel = document.getElementById('panel').getBoundingClientRect();
    return { corners, canvas: canvas.toJSON(), panel: panel.toJSON() };
  });
}

describe.each([
  { device: 'desktop', options: {}, clear: ({ panel }) => ({ left: panel.right, top: 0 }) },
  {
    device: 'phone',
    options: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 },
    clear: ({ panel }) => ({ left: 0, top: panel.bottom }),
  },
])('on a $device', ({ device, options, clear }) => {
  const served = servedDist(options);

  it('frames every scene whole, clear of the panel', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=crab&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        for (const scene of sceneNames) {
          if (scene !== 'crab') {
            await page.locator('#scene-select').selectOption(scene, { force: true });
            await expect.poll(() => page.evaluate(() => window.smfem.status.scene)).toBe(scene);
            await waitUntilReady(page);
          }
          const drawn = await framing(page);
          const free = clear(drawn);
          for (const { x, y } of drawn.corners) {
            expect(x, `${scene} on a ${device}`).toBeGreaterThanOrEqual(
              Math.max(drawn.canvas.left, free.left) - 1,
            );
            expect(x, `${scene} on a ${device}`).toBeLessThanOrEqual(drawn.canvas.right + 1);
            expect(y, `${scene} on a ${device}`).toBeGreaterThanOrEqual(
              Math.max(drawn.canvas.top, free.top) - 1,
            );
            expect(y, `${scene} on a ${device}`).toBeLessThanOrEqual(drawn.canvas.bottom + 1);
          }
        }
        expect(errors).toEqual([]);
      },
    );
  });
});
