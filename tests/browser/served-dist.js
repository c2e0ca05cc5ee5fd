// For a test file's duration (its beforeAll and afterAll): the production build (dist/) served
// with the cross-origin isolation headers (so the threaded build) to a fresh headless Chromium.
// Screenshots go to `artifacts`.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './chromium.js';
import { serveStatic } from './static-server.js';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
export const artifacts = fileURLToPath(new URL('../../test-results/browser', import.meta.url));

/**
 * Registers the hooks; the result has `browser` and `server` once the tests run. device: the
 * browser's context options over the desktop default (chromium.js: a phone's viewport, touch).
 */
export function servedDist(device = {}) {
  const served = { browser: null, server: null };
  beforeAll(async () => {
    served.browser = await launchChromium(device);
    served.server = await serveStatic(dist, { isolated: true });
    await mkdir(artifacts, { recursive: true });
  });
  afterAll(async () => {
    await served.server?.close();
    await served.browser?.close();
  });
  return served;
}
