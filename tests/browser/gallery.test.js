// Every scene of the gallery in headless Chromium (production build, isolation headers, so the
// threaded build): it loads, simulates, draws something that moves; a drag pulls the body; the
// URL restores the settings. A screenshot of each scene is kept in test-results/browser/.
import { fileURLToPath } from 'node:url';
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from './static-server.js';
import { launchChromium, openPage, waitUntilReady } from './chromium.js';
import { nonBackgroundFraction, pixelDifference } from './screenshots.js';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
const artifacts = fileURLToPath(new URL('../../test-results/browser', import.meta.url));
const sceneNames = [
  'bunny',
  'crab',
  'candy',
  'pendulum',
  'octobot',
  'swordsman',
  'creature',
  'beam',
  'materials',
];

let browser;
let server;
beforeAll(async () => {
  browser = await launchChromium();
  server = await serveStatic(dist, { isolated: true });
  await mkdir(artifacts, { recursive: true });
});
afterAll(async () => {
  await server?.close();
  await browser?.close();
});

describe.each(sceneNames)('scene %s', (scene) => {
  it('loads, simulates and draws a body that moves', async () => {
    const { page, errors } = await openPage(browser.context, `${server.url}?scene=${scene}`);
    const status = await waitUntilReady(page);
    expect(status.scene).toBe(scene);
    const first = await page.locator('#view').screenshot();
    await expect
      .poll(() => page.evaluate(() => window.smfem.status.simTime), { timeout: 20000 })
      .toBeGreaterThan(0.5);
    const later = await page.locator('#view').screenshot({ path: `${artifacts}/scene-${scene}.png` });
    expect(await nonBackgroundFraction(page, later)).toBeGreaterThan(0.02);
    expect(await pixelDifference(page, first, later)).toBeGreaterThan(0.001);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('interaction', () => {
  it('a drag grabs the body and changes its shape', async () => {
    const { page, errors } = await openPage(browser.context, `${server.url}?scene=bunny&g=0&paused=1`);
    await waitUntilReady(page);
    const box = await page.locator('#view').boundingBox();
    const before = await page.locator('#view').screenshot();
    // The camera frames the body's centre at the canvas centre.
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    expect(await page.evaluate(() => window.smfem.status.dragging)).toBe(true);
    await page.click('#play');
    for (let i = 1; i <= 10; i++) await page.mouse.move(x + 12 * i, y - 8 * i);
    await expect.poll(() => page.evaluate(() => window.smfem.status.simTime)).toBeGreaterThan(0.5);
    await page.mouse.up();
    expect(await page.evaluate(() => window.smfem.status.dragging)).toBe(false);
    const after = await page.locator('#view').screenshot({ path: `${artifacts}/drag-bunny.png` });
    expect(await pixelDifference(page, before, after)).toBeGreaterThan(0.005);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs MFEM and FEM side by side in lockstep', async () => {
    const { page, errors } = await openPage(browser.context, `${server.url}?scene=crab&compare=1`);
    const status = await waitUntilReady(page);
    expect(status.solvers).toEqual(['mfem', 'fem']);
    expect(await page.locator('#compare').isChecked()).toBe(true);
    await expect.poll(() => page.evaluate(() => window.smfem.status.simTime)).toBeGreaterThan(0.5);
    await page.locator('#view').screenshot({ path: `${artifacts}/compare-crab.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('restores its settings from the URL', async () => {
    const { page, errors } = await openPage(
      browser.context,
      `${server.url}?scene=crab&solver=fem&iters=3&dt=0.01&E0=2e9`,
    );
    await waitUntilReady(page);
    expect(await page.locator('#solver').inputValue()).toBe('fem');
    expect(await page.locator('#iterations').inputValue()).toBe('3');
    expect(await page.locator('#timestep + output').textContent()).toBe('10.0 ms');
    expect(await page.locator('#youngs-0 + output').textContent()).toBe('2.0e9 Pa');
    // The page writes its state back into the URL, so a copied link reopens the same setup.
    const search = new URL(page.url()).searchParams;
    expect(search.get('solver')).toBe('fem');
    expect(search.get('iters')).toBe('3');
    expect(errors).toEqual([]);
    await page.close();
  });
});
