// `npx smfem simulate ... --render` (wasm/js/render_frames.js) through the command line: the
// frames' number, names and size, a body that shows and moves (pixels read through Chromium,
// tests/browser/screenshots.js), a scene with contact, and bad input refused before anything is
// written, with nothing left behind; the mp4 through ffmpeg (installed by scripts/setup.sh).
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../wasm/js/chromium.js';
import { nonBackgroundFraction, pixelDifference, warmAndCool } from '../browser/screenshots.js';

const cli = fileURLToPath(new URL('../../wasm/js/cli.js', import.meta.url));
const beam = fileURLToPath(new URL('../../build/native/assets/beam.smfem', import.meta.url));
const playground = fileURLToPath(
  new URL('../../build/native/assets/contact/playground.json', import.meta.url),
);
const creatureRamp = fileURLToPath(
  new URL('../../build/native/assets/contact/creature-ramp.json', import.meta.url),
);
const run = (args, env = {}) =>
  promisify(execFile)(process.execPath, [cli, 'simulate', ...args], { env: { ...process.env, ...env } });

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png) {
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

describe('smfem simulate --render', () => {
  let folder, browser, page;
  // Each case in a folder of its own (it checks that nothing else appears there).
  const caseFolder = () => mkdtemp(join(folder, 'case-'));

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'smfem-render-test-'));
    browser = await launchChromium();
    page = await browser.context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('writes a PNG every K steps of the size asked for, showing the body as it moves', async () => {
    const place = await caseFolder();
    const out = join(place, 'beam');
    const { stderr } = await run([
      beam,
      ...['--steps', '24', '--render-every', '6', '--size', '320x180'],
      ...['--render', `${out}/`],
    ]);
    expect(stderr).toMatch(/rendered 4 frames of 320x180 .* ms per frame/);
    const files = (await readdir(out)).sort();
    expect(files).toEqual(['frame-00001.png', 'frame-00002.png', 'frame-00003.png', 'frame-00004.png']);
    const pngs = await Promise.all(files.map((file) => readFile(join(out, file))));
    for (const png of pngs) expect(pngSize(png)).toEqual([320, 180]);
    // The beam covers a good part of the picture, and sags between the first and the last frame.
    expect(await nonBackgroundFraction(page, pngs[0])).toBeGreaterThan(0.05);
    expect(await nonBackgroundFraction(page, pngs[3])).toBeGreaterThan(0.05);
    expect(await pixelDifference(page, pngs[0], pngs[3])).toBeGreaterThan(0.01);
    // The working folder became the output: nothing else beside it.
    expect(await readdir(place)).toEqual(['beam']);
  });

  it('defaults to about 30 frames per simulated second, into an existing empty folder', async () => {
    const out = join(await caseFolder(), 'empty');
    await mkdir(out);
    // The beam's step is 16 ms: a frame every 2 steps (31.25 per second).
    const { stderr } = await run([beam, '--steps', '7', '--size', '64x48', '--render', out]);
    expect(stderr).toContain('31.25 per simulated second');
    expect((await readdir(out)).sort()).toEqual(['frame-00001.png', 'frame-00002.png', 'frame-00003.png']);
  });

  it('draws every body of a scene with contact, and its obstacles', async () => {
    const out = join(await caseFolder(), 'playground');
    await run([playground, '--iters', '1', '--steps', '2', '--render-every', '2', '--render', `${out}/`]);
    const [png] = await Promise.all((await readdir(out)).map((file) => readFile(join(out, file))));
    expect(pngSize(png)).toEqual([960, 540]);
    expect(await nonBackgroundFraction(page, png)).toBeGreaterThan(0.03);
  });

  it('keeps a body in the picture when it travels beyond where it started', async () => {
    // By step 130 the creature has slid down the ramp and rests on the ground 2.7 m from its
    // start, outside the box the first frame was framed on. It is the warm colour in the
    // picture (the obstacles are grey).
    const out = join(await caseFolder(), 'ramp');
    await run([
      creatureRamp,
      '--steps',
      '130',
      '--render-every',
      '65',
      '--size',
      '320x180',
      '--render',
      `${out}/`,
    ]);
    const files = (await readdir(out)).sort();
    expect(files).toHaveLength(2);
    const last = await readFile(join(out, files[1]));
    expect((await warmAndCool(page, last)).warm).toBeGreaterThan(0.002);
  });

  it('refuses bad input before simulating, and leaves nothing behind', async () => {
    const refused = (args, message, code = 1, env = {}) =>
      expect(run(args, env)).rejects.toMatchObject({ code, stderr: expect.stringContaining(message) });
    const place = await caseFolder();
    const busy = join(place, 'busy');
    await mkdir(busy);
    await writeFile(join(busy, 'frame-00001.png'), 'someone else');
    await refused(
      [beam, '--render', busy],
      'the folder is not empty (give a new or an empty one, or pass --force)',
    );
    expect(await readFile(join(busy, 'frame-00001.png'), 'utf8')).toBe('someone else');
    const video = join(place, 'yours.mp4');
    await writeFile(video, 'a video of yours');
    await refused([beam, '--render', video], 'the file exists (pass --force to replace it)');
    expect(await readFile(video, 'utf8')).toBe('a video of yours');
    await refused([beam, '--render', join(place, 'out.gif')], 'a folder for PNG frames');
    await refused([beam, '--render', join(place, 'nowhere', 'deeper', 'out/')], 'does not exist');
    await refused([beam, '--size', '960x540'], '--render-every and --size go with --render', 2);
    await refused([beam, '--render', `${place}/x/`, '--size', '8x8'], '--size must be', 2);
    await refused([beam, '--render', `${place}/x/`, '--size', 'big'], '--size must be', 2);
    await refused([beam, '--steps', '3', '--render-every', '4', '--render', `${place}/x/`], 'no frame', 2);
    await refused([beam, '--render', join(place, 'x.mp4')], 'apt-get install ffmpeg', 1, { PATH: '' });
    await refused([beam, '--render', `${place}/x/`], 'apt-get install chromium', 1, {
      CHROMIUM_PATH: join(place, 'no-chromium'),
    });
    // A run that fails after Chromium started (here: a corrupt asset) writes no frame either.
    const corrupt = join(place, 'corrupt.smfem');
    await writeFile(corrupt, 'not an asset at all');
    await refused([corrupt, '--render', `${place}/x/`], 'corrupt.smfem');
    expect((await readdir(place)).sort()).toEqual(['busy', 'corrupt.smfem', 'yours.mp4']);
  });

  it('with --force, writes its frames among the files of a folder that has some', async () => {
    const out = join(await caseFolder(), 'busy');
    await mkdir(out);
    await writeFile(join(out, 'frame-00001.png'), 'an old frame');
    await writeFile(join(out, 'notes.txt'), 'yours');
    await run([beam, '--steps', '4', '--render-every', '2', '--size', '64x48', '--render', out, '--force']);
    expect((await readdir(out)).sort()).toEqual(['frame-00001.png', 'frame-00002.png', 'notes.txt']);
    expect(pngSize(await readFile(join(out, 'frame-00001.png')))).toEqual([64, 48]);
    expect(await readFile(join(out, 'notes.txt'), 'utf8')).toBe('yours');
  });

  it('leaves nothing behind when interrupted (Ctrl-C) while it renders', async () => {
    const where = await caseFolder();
    const child = spawn(
      process.execPath,
      [
        cli,
        'simulate',
        beam,
        '--steps',
        '100000',
        '--render-every',
        '1',
        '--size',
        '64x48',
        '--render',
        join(where, 'frames/'),
      ],
      { stdio: 'ignore' },
    );
    const exited = new Promise((done) => child.on('exit', (code, signal) => done({ code, signal })));
    // Its work folder, with a frame in it: the run is rendering.
    await expect
      .poll(
        async () => {
          const work = (await readdir(where)).find((name) => name.endsWith('.frames'));
          return work ? (await readdir(join(where, work))).length : 0;
        },
        { timeout: 30000 },
      )
      .toBeGreaterThan(0);
    child.kill('SIGINT');
    expect(await exited).toEqual({ code: 130, signal: null });
    expect(await readdir(where)).toEqual([]);
  }, 60000);
});

// scripts/setup.sh installs ffmpeg, so this runs (and fails without it) under npm test.
describe('smfem simulate --render out.mp4', () => {
  it('encodes the frames with ffmpeg into an mp4', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'smfem-render-mp4-'));
    try {
      const out = join(folder, 'beam.mp4');
      await run([beam, '--steps', '8', '--size', '161x91', '--render', out]);
      const video = await readFile(out);
      expect(video.subarray(4, 8).toString()).toBe('ftyp');
      expect(video.includes('moov')).toBe(true);
      expect(await readdir(folder)).toEqual(['beam.mp4']);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
