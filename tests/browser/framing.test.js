// Every scene framed whole: at a desktop window and on a phone, each corner of the box around the
// scene's bodies at rest is drawn inside the canvas, clear of the control panel (beside it on a
// desktop, below its folded bar on a phone); a body that travels out of that box stays in the
// picture, and Reset frames the start again.
import { describe, expect, it } from 'vitest';
import { pause, waitUntilReady, withPage } from './chromium.js';
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

// Body 0's farthest vertices towards the eight corners of a box (the surface vertices nearest
// points 100 m out), where they are drawn now: in the world and on the screen.
async function bodyExtremes(page) {
  return page.evaluate(() =>
    Array.from({ length: 8 }, (_, k) => {
      const far = [k & 1 ? 100 : -100, k & 2 ? 100 : -100, k & 4 ? 100 : -100];
      const world = window.smfem.drawnPoint(far, 0);
      return { world, screen: window.smfem.project(world) };
    }),
  );
}

function expectInside(points, drawn, free, label) {
  for (const { x, y } of points) {
    expect(x, label).toBeGreaterThanOrEqual(Math.max(drawn.canvas.left, free.left) - 1);
    expect(x, label).toBeLessThanOrEqual(drawn.canvas.right + 1);
    expect(y, label).toBeGreaterThanOrEqual(Math.max(drawn.canvas.top, free.top) - 1);
    expect(y, label).toBeLessThanOrEqual(drawn.canvas.bottom + 1);
  }
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
          expectInside(drawn.corners, drawn, clear(drawn), `${scene} on a ${device}`);
        }
        expect(errors).toEqual([]);
      },
    );
  });

  // On a desktop only: on a phone the panel's folded bar hides the play button.
  it.runIf(device === 'desktop')(
    'keeps a body in the picture as it travels, and frames the start again on Reset',
    async () => {
      // The creature falls onto the ramp at x = -1.2 m, slides down it and rests on the ground
      // about 1.6 m further along x: by 1.6 s it is well beyond the box it was framed on.
      await withPage(
        served.browser.context,
        `${served.server.url}?scene=creature-ramp`,
        async ({ page, errors }) => {
          await waitUntilReady(page);
          const home = await page.evaluate(() => window.smfem.framedBox());
          await page.waitForFunction(() => window.smfem.status.simTime > 1.6, null, { timeout: 90000 });
          const extremes = await bodyExtremes(page);
          const beyond = Math.max(...extremes.map(({ world }) => world[0]));
          expect(beyond, 'the creature travelled beyond its framed start').toBeGreaterThan(home[1][0] + 0.5);
          const drawn = await framing(page);
          expectInside(
            extremes.map(({ screen }) => screen),
            drawn,
            clear(drawn),
            `the creature at rest on a ${device}`,
          );
          await pause(page); // a running scene would carry the creature out of its start again
          await page.locator('#reset').click({ force: true });
          await expect.poll(() => page.evaluate(() => window.smfem.framedBox())).toEqual(home);
          expect(errors).toEqual([]);
        },
      );
    },
    150000,
  );
});
