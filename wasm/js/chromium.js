// Debian's Chromium driven by playwright-core (no browser download), headless, with the flags
// this machine needs and a fresh profile per launch. Used by `smfem simulate --render`
// (render_frames.js) and the browser tests (tests/browser/chromium.js).
import { access, constants, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The Chromium executable: $CHROMIUM_PATH, else Debian's. */
export const chromiumPath = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Throws an Error saying how to get Chromium when its executable is not there. */
export async function requireChromium() {
  const path = chromiumPath();
  await access(path, constants.X_OK).catch(() => {
    throw new Error(
      `Chromium is missing (${path} is not an executable): apt-get install chromium, or set CHROMIUM_PATH`,
    );
  });
  return path;
}

/**
 * A persistent context in a fresh profile; close() ends the browser and removes the profile.
 * device: Playwright context options over the desktop default (a phone's viewport and touch).
 */
export async function launchChromium(device = {}) {
  // Imported here: the simulator's command line needs playwright-core only to render.
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(join(tmpdir(), 'smfem-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath(),
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
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}
