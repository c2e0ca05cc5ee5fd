// The browser tests' Chromium: the launcher is shared with `smfem simulate --render`
// (wasm/js/chromium.js: Debian's Chromium through playwright-core, headless, a fresh profile).
import { expect } from 'vitest';

export { launchChromium } from '../../wasm/js/chromium.js';

/** Opens a page and collects its console errors and uncaught exceptions. */
async function openPage(context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url);
  return { page, errors };
}

/** Waits until window.smfem.status.ready, or fails with the page's own lastError. */
export async function waitUntilReady(page, timeout = 30000) {
  await page.waitForFunction(() => window.smfem?.status.ready || window.smfem?.status.lastError, null, {
    timeout,
  });
  const status = await page.evaluate(() => window.smfem.status);
  if (!status.ready) throw new Error(`page failed: ${status.lastError}`);
  return status;
}

/**
 * Pauses a playing page (#play) and waits for a step still under way to be drawn: what
 * window.smfem.status says is then what stays drawn.
 */
export async function pause(page) {
  await page.click('#play');
  let before;
  await expect
    .poll(async () => {
      const [was, now] = [before, await page.evaluate(() => window.smfem.status.simTime)];
      before = now;
      await page.waitForTimeout(200);
      return was === now;
    })
    .toBe(true);
}

/** Runs fn({ page, errors }) on a fresh page and closes it whatever happens (a failed test
 * must not leave a page simulating and rendering beside the next ones). */
export async function withPage(context, url, fn) {
  const { page, errors } = await openPage(context, url);
  try {
    return await fn({ page, errors });
  } finally {
    await page.close();
  }
}
