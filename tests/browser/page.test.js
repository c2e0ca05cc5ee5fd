// The production build (dist/) in headless Chromium, served like two kinds of static host:
// one that sends the cross-origin isolation headers (threaded build chosen) and one that
// does not (single-threaded build chosen).
import { fileURLToPath } from 'node:url';
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from './static-server.js';
import { launchChromium, waitUntilReady, withPage } from './chromium.js';
import { nonBackgroundFraction } from './screenshots.js';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
const artifacts = fileURLToPath(new URL('../../test-results/browser', import.meta.url));

let browser;
beforeAll(async () => {
  browser = await launchChromium();
  await mkdir(artifacts, { recursive: true });
});
afterAll(async () => browser?.close());

describe.each([
  { isolated: true, expectedBuild: 'threads' },
  { isolated: false, expectedBuild: 'single' },
])('page served with isolation headers: $isolated', ({ isolated, expectedBuild }) => {
  let server;
  beforeAll(async () => {
    server = await serveStatic(dist, { isolated });
  });
  afterAll(async () => server?.close());

  it(`chooses the ${expectedBuild} build, loads a scene and simulates it`, async () => {
    await withPage(browser.context, `${server.url}?scene=bunny`, async ({ page, errors }) => {
      const status = await waitUntilReady(page);
      expect(status.build).toBe(expectedBuild);
      expect(status.scene).toBe('bunny');
      expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(isolated);
      // Frames are drawn and simulated time advances (the worker steps the solver).
      await expect
        .poll(() => page.evaluate(() => window.smfem.status.frame), { timeout: 20000 })
        .toBeGreaterThan(2);
      await expect
        .poll(() => page.evaluate(() => window.smfem.status.simTime), { timeout: 20000 })
        .toBeGreaterThan(0.1);
      expect(await page.evaluate(() => window.smfem.status.stepMs)).toBeGreaterThan(0);

      const shot = await page
        .locator('#view')
        .screenshot({ path: `${artifacts}/bunny-${expectedBuild}.png` });
      expect(await nonBackgroundFraction(page, shot)).toBeGreaterThan(0.02);
      expect(errors).toEqual([]);
    });
  });
});
