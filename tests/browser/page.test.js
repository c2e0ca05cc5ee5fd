// The production build (dist/) in headless Chromium, served like two kinds of static host:
// one that sends the cross-origin isolation headers (threaded build chosen) and one that
// does not (single-threaded build chosen).
import { fileURLToPath } from 'node:url';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from './static-server.js';
import { launchChromium, waitUntilReady, withPage } from './chromium.js';
import { nonBackgroundFraction } from './screenshots.js';
import { gridTets, medit } from '../wasm/test_meshes.js';

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
      // Headless Chromium renders in software (SwiftShader): the view is drawn light, at three
      // quarters of the canvas's resolution (web/src/render/renderQuality.js).
      expect(status.render).toBe('light');
      const [bufferWidth, cssWidth] = await page.evaluate(() => {
        const canvas = document.getElementById('view');
        return [canvas.width, canvas.clientWidth];
      });
      expect(Math.abs(bufferWidth - 0.75 * cssWidth)).toBeLessThanOrEqual(1);
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
  // Your model bakes with the bake module of the same build (tests/browser/your-model.test.js
  // covers the rest of it).
  it(`bakes a model of the user's with the ${expectedBuild} bake`, async () => {
    await withPage(browser.context, `${server.url}?paused=1`, async ({ page, errors }) => {
      await waitUntilReady(page);
      await page.setInputFiles('#your-model-input', {
        name: 'bar.mesh',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(medit(gridTets(8, 2, 2, 0.04))),
      });
      await page.waitForFunction(() => window.smfem.status.bake?.stage === 'done', null, { timeout: 60000 });
      await page.waitForFunction(() => window.smfem.status.scene === 'custom' && window.smfem.status.ready);
      const { bake } = await page.evaluate(() => window.smfem.status);
      expect([bake.build, bake.tets, bake.error]).toEqual([expectedBuild, 192, null]);
      expect(errors).toEqual([]);
    });
  }, 120000);
});

describe('a threaded module that does not start', () => {
  let server;
  beforeAll(async () => {
    server = await serveStatic(dist, { isolated: true });
  });
  afterAll(async () => server?.close());

  it('runs the page on one thread and says why', async () => {
    // The threaded module's binary as the page build copied it (the same bytes, a hashed name),
    // refused by the server: the page chose threads and cannot start them.
    const threaded = await readFile(new URL('../../build/wasm-threads/module/smfem.wasm', import.meta.url));
    const copies = [];
    for (const file of await readdir(`${dist}/assets`)) {
      if (file.endsWith('.wasm') && threaded.equals(await readFile(`${dist}/assets/${file}`)))
        copies.push(file);
    }
    expect(copies).toHaveLength(1);
    const blocked = `**/assets/${copies[0]}`;
    await browser.context.route(blocked, (route) => route.fulfill({ status: 503, body: 'unavailable' }));
    try {
      await withPage(browser.context, `${server.url}?scene=bunny`, async ({ page, errors }) => {
        const status = await waitUntilReady(page);
        expect(status.build).toBe('single');
        expect(status.notices).toHaveLength(1);
        expect(status.notices[0]).toMatch(
          /^The two-thread solver did not start \(.*503.*\); the page runs on one thread, more slowly\.$/,
        );
        expect(await page.textContent('#status')).toContain(
          'on one thread (the two-thread solver did not start)',
        );
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.simTime), { timeout: 20000 })
          .toBeGreaterThan(0.1);
        // The browser reports the refused download; nothing else went wrong.
        expect(errors.filter((e) => !e.includes('503'))).toEqual([]);
      });
    } finally {
      await browser.context.unroute(blocked);
    }
  });
});

describe('the progress bar', () => {
  let server;
  beforeAll(async () => {
    server = await serveStatic(dist, { isolated: true });
  });
  afterAll(async () => server?.close());

  it("covers the module's download and compilation, and goes when the scene is ready", async () => {
    // The module's download is held back half a second; the page records every change of the
    // bar (its value, or none while it moves without one, and whether it shows) until ready.
    const hold = async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    };
    await browser.context.route('**/*.wasm', hold);
    await browser.context.addInitScript(() => {
      window.progressChanges = [];
      document.addEventListener('DOMContentLoaded', () => {
        const bar = document.getElementById('progress');
        const record = () =>
          window.progressChanges.push({
            value: bar.hasAttribute('value') ? bar.value : null,
            hidden: bar.hidden,
            ready: Boolean(window.smfem?.status.ready),
          });
        new MutationObserver(record).observe(bar, { attributes: true, attributeFilter: ['value', 'hidden'] });
      });
    });
    try {
      await withPage(browser.context, `${server.url}?scene=crab&paused=1`, async ({ page, errors }) => {
        await waitUntilReady(page);
        const changes = await page.evaluate(() => window.progressChanges);
        const loading = changes.filter((c) => !c.ready && !c.hidden);
        // Never full before the scene is ready: the asset to 45 %, the module's download to 90 %,
        // then moving without a value while it compiles and the simulators are built.
        expect(loading.every((c) => c.value === null || c.value < 1)).toBe(true);
        expect(loading.some((c) => c.value > 0.45 && c.value <= 0.9)).toBe(true);
        expect(loading.at(-1).value).toBeNull();
        expect(await page.locator('#progress').isHidden()).toBe(true);
        expect(errors).toEqual([]);
      });
    } finally {
      await browser.context.unroute('**/*.wasm', hold);
    }
  });
});

describe('drawing', () => {
  let server;
  beforeAll(async () => {
    server = await serveStatic(dist, { isolated: true });
  });
  afterAll(async () => server?.close());

  it('draws nothing while paused and untouched, and draws again when the camera orbits', async () => {
    await withPage(browser.context, `${server.url}?scene=crab&paused=1`, async ({ page, errors }) => {
      await waitUntilReady(page);
      const frames = () => page.evaluate(() => window.smfem.status.frame);
      await expect.poll(frames).toBeGreaterThan(0); // the first picture
      // Opening may draw more than once (the first picture, then what arrives after it, later on
      // a loaded machine): idle is the count once it has held for 300 ms.
      let idle = await frames();
      await expect
        .poll(
          async () => {
            const before = idle;
            await page.waitForTimeout(300);
            idle = await frames();
            return idle === before;
          },
          { timeout: 10000 },
        )
        .toBe(true);
      await page.waitForTimeout(1000);
      expect(await frames()).toBe(idle);
      // An orbit from the canvas's top-right corner (background: nothing to grab there).
      const box = await page.locator('#view').boundingBox();
      await page.mouse.move(box.x + box.width - 20, box.y + 20);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 120, box.y + 40, { steps: 5 });
      await page.mouse.up();
      await expect.poll(frames).toBeGreaterThan(idle);
      expect(errors).toEqual([]);
    });
  });

  it("says which of the URL's values a scene has no setting for", async () => {
    for (const [query, words] of [
      ['scene=jelly-pile&dt=0.05', 'dt=0.05 does not apply to the scene "Contact: jelly pile"'],
      // Once, as not used, not first as clamped to the range (5 Pa is below it).
      ['scene=crab&E7=5', 'E7=5: the scene "Crab" has no region 7; it is not used.'],
      ['scene=eigenfit&compare=1', 'compare=1 does not apply to the scene "EigenFit: three resolutions"'],
      // Both set: one gives way to the other, which the scene does have.
      ['scene=crab&compare=1&compareLocal=1', 'compare=1 gives way to compareLocal=1: it is off.'],
      ['scene=poke&compare=1&globalOnly=1', 'globalOnly=1 gives way to compare=1: it is off.'],
      ['scene=crab&ground=1', 'ground=1 applies to Your model (baked here, or opened with asset=)'],
    ]) {
      await withPage(browser.context, `${server.url}?${query}&paused=1`, async ({ page, errors }) => {
        const status = await waitUntilReady(page);
        expect(status.notices.join('\n'), query).toContain(words);
        expect(status.notices, query).toHaveLength(1);
        expect(errors).toEqual([]);
      });
    }
  });

  it('keeps a light scene in real time, and says how many steps it takes a second', async () => {
    // The beam's step takes about a millisecond. The clock was fed each batch's round trip to the
    // worker (50-70 ms here, the page drawing in software), took that for the steps' cost and
    // asked one step a frame: the beam ran at 0.3 of real time while the line said it stepped
    // hundreds of times a second.
    for (const speed of [1, 2]) {
      await withPage(browser.context, `${server.url}?scene=beam&speed=${speed}`, async ({ page, errors }) => {
        await waitUntilReady(page);
        const status = () => page.evaluate(() => window.smfem.status);
        await expect.poll(async () => (await status()).simTime, { timeout: 10000 }).toBeGreaterThan(0.2);
        const first = await status();
        const started = Date.now();
        await page.waitForTimeout(4000);
        const last = await status();
        const ratio = (last.simTime - first.simTime) / ((Date.now() - started) / 1000);
        // What the page may reach: the speed asked, or the 0.1 s of time a batch may catch up
        // times the batches a second (at most the frames: a machine loaded by other work draws
        // fewer, and the catch-up's cap then holds the run back by design, not the step's cost).
        const reachable = Math.min(speed, 0.1 * last.fps);
        expect(ratio, `speed ${speed}, ${last.fps} frames a second`).toBeGreaterThan(0.8 * reachable);
        expect(ratio, `speed ${speed}`).toBeLessThan(1.1 * speed);
        // The line's rate is the page's: 62.5 steps of 16 ms a simulated second, times what it ran.
        const said = await page.locator('#status').textContent();
        const rate = Number(/It steps (\d+) times a second/.exec(said)?.[1]);
        expect(rate, said).toBeGreaterThan(0.8 * 62.5 * ratio);
        expect(rate, said).toBeLessThan(1.25 * 62.5 * ratio);
        if (ratio > 0.97 * speed) expect(said).not.toMatch(/slow motion|behind/);
        expect(errors).toEqual([]);
      });
    }
  });

  it("resets a run whose energy runs away at the sliders' ends, says so in a notice, and the line goes on", async () => {
    // Every value inside its slider's range: the crab's energy climbed from 20 J to 7e16 J, every
    // step finite and "ok", a second or two a step, and nothing reset it.
    const url = `${server.url}?scene=crab&dt=0.1&iters=1&E0=100&E1=1e13&g=30`;
    await withPage(browser.context, url, async ({ page, errors }) => {
      await waitUntilReady(page);
      const status = () => page.evaluate(() => window.smfem.status);
      await expect
        .poll(async () => (await status()).notices.join('\n'), { timeout: 30000 })
        .toContain('The simulation became unstable and was reset.');
      const { motion } = await status();
      expect(motion === null || motion.kinetic + motion.elastic < 1e6).toBe(true);
      // The notice is in the list; the line still says what runs, and Pause is heard.
      await page.locator('#play').click();
      await expect
        .poll(() => page.locator('#status').textContent())
        .toMatch(/^Crab is paused in your browser/);
      expect(errors).toEqual([]);
    });
  });

  it('shows the run moving at the smallest time step, slower than real time', async () => {
    // 1e-5 s: the 0.1 s the clock may owe is 10,000 steps, which once went to the worker as one
    // batch of minutes while nothing moved on the page.
    await withPage(browser.context, `${server.url}?scene=crab&dt=0.00001`, async ({ page, errors }) => {
      await waitUntilReady(page);
      const simTime = () => page.evaluate(() => window.smfem.status.simTime);
      await expect.poll(simTime, { timeout: 5000 }).toBeGreaterThan(0);
      const first = await simTime();
      await expect.poll(simTime, { timeout: 5000 }).toBeGreaterThan(first);
      expect(errors).toEqual([]);
    });
  });
});
