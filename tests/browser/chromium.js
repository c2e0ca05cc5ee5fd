// Debian's Chromium driven by playwright-core (no browser download), headless, with the flags
// this machine needs and a fresh profile per launch.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/** device: Playwright context options over the desktop default (a phone's viewport and touch). */
export async function launchChromium(device = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'smfem-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 960, height: 640 },
    ...device,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--enable-unsafe-swiftshader',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

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
