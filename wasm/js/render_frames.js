// `smfem simulate --render DIR/ | out.mp4` (simulate.js): the frames of a headless run drawn by
// three.js in headless Chromium, with the page's own skinning (web/src/render/FrameView.js: the
// weights in a float texture, the 12m reduced coordinates as uniforms each frame).
//
// The page and its modules (FrameView and its imports, three.js from node_modules) are answered
// by Playwright's request routing on a made-up origin, not by a server; the render surfaces
// (smfem.pageAsset, the C++ reader) go to the page once, then each frame only u. Each frame is
// read back from the canvas as a PNG (frame-00001.png, ...), while the run takes its next steps,
// into a working folder beside the output, which becomes the output folder at the end, or which
// ffmpeg encodes into a temporary file renamed to out.mp4: a failed run leaves no half-written
// output (one killed may leave the hidden working folder).
import { execFile } from 'node:child_process';
import { access, constants, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { launchChromium, requireChromium } from './chromium.js';
import { refuseExistingFile, refuseFilledFolder } from './output_guard.js';
import { besideOutput, removeOnInterrupt } from './work_files.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const origin = 'http://smfem-frames.invalid';
// What the page may load from the repository: three.js and the page's render modules.
const servedFolders = ['node_modules/three/build/', 'web/src/render/'];

/** Parses --size "WxH" (16..4096 pixels each). */
export function parseSize(text) {
  const match = /^(\d+)x(\d+)$/.exec(text);
  const [width, height] = match ? [Number(match[1]), Number(match[2])] : [];
  if (!match || ![width, height].every((n) => n >= 16 && n <= 4096))
    throw new Error(`--size must be WIDTHxHEIGHT, each 16 to 4096 pixels (like 960x540): ${text}`);
  return { width, height };
}

/** Steps between frames for about 30 frames per simulated second (at least 1). */
export function defaultRenderEvery(timestep) {
  return Math.max(1, Math.round(1 / (30 * timestep)));
}

/** The first `name` on PATH that is an executable file, or null. */
async function onPath(name) {
  for (const folder of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const path = join(folder, name);
    if (
      await access(path, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return path;
  }
  return null;
}

async function requireWritableFolder(folder, what) {
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) throw new Error(`--render ${what}: the folder ${folder} does not exist`);
  await access(folder, constants.W_OK).catch(() => {
    throw new Error(`--render ${what}: cannot write in ${folder}`);
  });
}

/**
 * What --render will write, checked before anything is simulated: { kind: 'frames' | 'video',
 * path, ffmpeg }. A folder (a path ending in / or an existing folder) must be new or empty and
 * its parent writable; an .mp4 needs ffmpeg on PATH and a writable folder, and must not exist;
 * `force` (--force) lifts the last two of those (output_guard.js). Throws an Error saying what is
 * wrong.
 */
export async function renderTarget(path, force = false) {
  const existing = await stat(path).catch(() => null);
  if (path.endsWith('.mp4') && !existing?.isDirectory()) {
    const ffmpeg = await onPath('ffmpeg');
    if (!ffmpeg)
      throw new Error(
        `--render ${path}: an mp4 is encoded by ffmpeg, which is not on PATH: apt-get install ffmpeg ` +
          '(or render PNG frames into a folder: --render DIR/)',
      );
    await refuseExistingFile(path, '--render', force);
    await requireWritableFolder(dirname(resolve(path)), path);
    return { kind: 'video', path: resolve(path), ffmpeg };
  }
  if (!path.endsWith('/') && !existing)
    throw new Error(
      `--render takes a folder for PNG frames (a path ending in / or an existing folder) or an .mp4 file: ${path}`,
    );
  await refuseFilledFolder(path, '--render', force);
  await requireWritableFolder(dirname(resolve(path)), path);
  return { kind: 'frames', path: resolve(path) };
}

/** The page: a canvas of the frame's size and FrameView, with 'three' mapped to node_modules. */
function pageHtml({ width, height }) {
  const imports = { three: '/node_modules/three/build/three.module.js' };
  return `<!doctype html>
<html>
  <head>
    <style>html, body { margin: 0; background: #15171c; } canvas { display: block; }</style>
    <script type="importmap">${JSON.stringify({ imports })}</script>
  </head>
  <body>
    <canvas width="${width}" height="${height}"></canvas>
    <script type="module">
      import { FrameView } from '/web/src/render/FrameView.js';
      try {
        window.smfemFrames = new FrameView(document.querySelector('canvas'), ${width}, ${height});
      } catch (error) {
        window.smfemFramesError = String(error); // no WebGL 2, most likely
      }
    </script>
  </body>
</html>`;
}

// Answers the page's requests: the page itself and files under servedFolders.
async function answer(route, size) {
  const path = decodeURIComponent(new URL(route.request().url()).pathname);
  if (path === '/') return route.fulfill({ contentType: 'text/html', body: pageHtml(size) });
  const file = resolve(repoRoot, `.${path}`);
  const inRepo = relative(repoRoot, file).split(sep).join('/');
  if (!servedFolders.some((folder) => inRepo.startsWith(folder))) return route.fulfill({ status: 404 });
  const body = await readFile(file).catch(() => null);
  if (!body) return route.fulfill({ status: 404 });
  return route.fulfill({ contentType: 'text/javascript', body });
}

/**
 * Draws frames of a run and writes them as PNGs or an mp4. start() checks the output and
 * launches Chromium (before simulating); open() shows the scene; frame() draws and keeps one
 * frame; finish() writes the output; close() ends Chromium and removes what finish() did not
 * keep.
 */
export class FrameRenderer {
  /** path: --render's argument; size: { width, height }. */
  static async start(path, size, force = false) {
    const target = await renderTarget(path, force);
    await requireChromium();
    const started = performance.now();
    const browser = await launchChromium({ viewport: size, deviceScaleFactor: 1 });
    try {
      await browser.context.route(`${origin}/**`, (route) => answer(route, size));
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      const errors = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(`${origin}/`);
      const failed = await page
        .waitForFunction(() => (window.smfemFrames && 'ok') || window.smfemFramesError, null, {
          timeout: 30000,
        })
        .then((answer) => answer.jsonValue())
        .catch(() => errors.join('; ') || 'it did not load in 30 s');
      if (failed !== 'ok') throw new Error(`the frame page did not start in Chromium: ${failed}`);
      return new FrameRenderer(target, size, browser, page, performance.now() - started);
    } catch (error) {
      await browser.close();
      throw error;
    }
  }

  constructor(target, size, browser, page, startMs) {
    this.target = target;
    this.size = size;
    this.browser = browser;
    this.page = page;
    // Frames go here first; in the output's folder, so that the last step is a rename.
    this.work = besideOutput(target.path, 'frames');
    this.count = 0;
    this.times = { startMs, openMs: 0, drawMs: 0, waitMs: 0, encodeMs: 0 };
    // Interrupted (Ctrl-C), the run's loop is awaiting a frame: the work folder goes with it.
    this.release = removeOnInterrupt(this.work);
  }

  /**
   * Shows the scene: assets, each body's { bytes, name } (one for a single asset); contact, the
   * contact scene's info, or null. The camera is the single asset's meta.camera when it has one,
   * else the view frames the rest bounds (a scene with contact: its bodies and obstacles).
   */
  async open(smfem, { assets, contact }) {
    const started = performance.now();
    const pages = assets.map(({ bytes, name }) => smfem.pageAsset(bytes, name));
    const camera = contact ? null : (pages[0].meta.camera ?? null);
    await this.page.evaluate((description) => window.smfemFrames.open(description), {
      surfaces: pages.map((page) => page.surface),
      contact,
      camera,
    });
    await mkdir(this.work);
    this.times.openMs = performance.now() - started;
  }

  /** The file name of frame `index` (1-based): frame-00001.png (ffmpeg's frame-%05d.png). */
  static fileName(index) {
    return `frame-${String(index).padStart(5, '0')}.png`;
  }

  /**
   * Draws and keeps the next frame: u and obstacleOffsets as FrameView.draw takes them. Chromium
   * draws it while the caller goes on stepping; the next frame() or finish() waits for it.
   */
  async frame(u, obstacleOffsets = null) {
    await this.settle();
    const file = join(this.work, FrameRenderer.fileName(++this.count));
    const sent = performance.now();
    // One round trip: draw, then the canvas as a PNG (which waits for the rasterizer).
    this.pending = this.page
      .evaluate(
        ([u, offsets]) => {
          window.smfemFrames.draw(u, offsets);
          return document.querySelector('canvas').toDataURL('image/png');
        },
        [u, obstacleOffsets],
      )
      .then((url) => {
        this.times.drawMs += performance.now() - sent;
        return writeFile(file, Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
      })
      // Kept for settle(): a rejection nobody awaits yet would end the process.
      .catch((error) => {
        this.failure = error;
      });
    // Until the request has left for Chromium (the caller's steps block this thread).
    await new Promise((resolve) => setImmediate(resolve));
  }

  // Waits for the frame in flight; the time the run waits is the cost rendering adds to it.
  async settle() {
    const started = performance.now();
    const pending = this.pending;
    this.pending = null;
    await pending;
    this.times.waitMs += performance.now() - started;
    if (this.failure) throw new Error(`drawing frame ${this.count} failed: ${this.failure.message}`);
  }

  /** Writes the output: the frames' folder, or the mp4 at `fps` frames per second. */
  async finish(fps) {
    await this.settle();
    if (this.count === 0) throw new Error('--render: no frame was drawn');
    this.fps = fps;
    if (this.target.kind === 'frames') {
      // A new folder is the work folder renamed; into an existing one (empty, or any with
      // --force) the frames move one by one, replacing frames of the same names.
      if (!(await stat(this.target.path).catch(() => null))) {
        await rename(this.work, this.target.path);
        return;
      }
      for (let index = 1; index <= this.count; ++index) {
        const name = FrameRenderer.fileName(index);
        await rename(join(this.work, name), join(this.target.path, name));
      }
      await rm(this.work, { recursive: true, force: true });
      return;
    }
    const started = performance.now();
    const temporary = besideOutput(this.target.path, 'tmp');
    try {
      await promisify(execFile)(
        this.target.ffmpeg,
        [
          ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
          ...['-framerate', String(fps), '-i', join(this.work, 'frame-%05d.png')],
          // yuv420p (what players take) needs even sides.
          ...['-vf', 'pad=ceil(iw/2)*2:ceil(ih/2)*2', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'],
          ...['-f', 'mp4', temporary],
        ],
        { maxBuffer: 1 << 24 },
      ).catch((error) => {
        throw new Error(`ffmpeg failed: ${(error.stderr || error.message).trim()}`);
      });
      await rename(temporary, this.target.path);
    } finally {
      await rm(temporary, { force: true });
    }
    this.times.encodeMs = performance.now() - started;
  }

  /**
   * What it cost: per frame, Chromium's time from request to PNG (drawing overlaps the next
   * steps) and what the run waited for it; Chromium's start; the scene's upload; encoding.
   */
  summary() {
    const { fps } = this;
    const { startMs, openMs, drawMs, waitMs, encodeMs } = this.times;
    const perFrame = (ms) => (ms / this.count).toFixed(1);
    const where = this.target.kind === 'frames' ? `${this.target.path}/` : this.target.path;
    return (
      `rendered ${this.count} frames of ${this.size.width}x${this.size.height} (${fps.toFixed(2)} per ` +
      `simulated second) to ${where}: ${perFrame(drawMs)} ms per frame from request to PNG, of which ` +
      `the run waited ${perFrame(waitMs)}; Chromium and page ${(startMs / 1000).toFixed(2)} s, scene ` +
      `${(openMs / 1000).toFixed(2)} s` +
      (this.target.kind === 'video' ? `, ffmpeg ${(encodeMs / 1000).toFixed(2)} s` : '')
    );
  }

  async close() {
    this.release();
    await this.pending;
    await this.browser.close();
    await rm(this.work, { recursive: true, force: true });
  }
}
