// Benchmark of the production page in headless Chromium (not a test: it prints figures).
//
//   node tests/browser/page-bench.mjs [scene] [--runs N] [--seconds S]
//
// For the threaded build (isolation headers) and the single-threaded one, N fresh page loads
// each: the time from navigation to the first frame drawn after a simulated step, then after S
// seconds of running, the median step time (the solver in the worker, what real time needs:
// under 1000/60 ms at 60 steps per second) and the frame rate (software rendering here, so it
// says little about a real GPU). Prints one JSON object.
import { fileURLToPath } from 'node:url';
import { serveStatic } from './static-server.js';
import { launchChromium, waitUntilReady, withPage } from './chromium.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const scene = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'crab';
const runs = option('--runs', 3);
const seconds = option('--seconds', 5);

const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1], min: sorted[0], max: sorted.at(-1) };
};

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
const browser = await launchChromium();
const result = { scene, runs, seconds, builds: {} };
try {
  for (const isolated of [true, false]) {
    const server = await serveStatic(dist, { isolated });
    const firstFrame = [];
    const step = [];
    const fps = [];
    let build = null;
    try {
      for (let run = 0; run < runs; run++) {
        await withPage(browser.context, `${server.url}?scene=${scene}`, async ({ page }) => {
          build = (await waitUntilReady(page)).build;
          await page.waitForFunction(() => window.smfem.status.firstFrameMs !== null);
          await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
          const status = await page.evaluate(() => window.smfem.status);
          firstFrame.push(status.firstFrameMs);
          step.push(status.stepMs);
          fps.push(status.fps);
        });
      }
    } finally {
      await server.close();
    }
    result.builds[build] = {
      first_simulated_frame_ms: summary(firstFrame),
      step_ms: summary(step),
      fps: summary(fps),
    };
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(result, null, 2));
