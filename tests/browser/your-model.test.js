// "Your model" in headless Chromium (production build, threaded): a user's surface (OBJ, glTF)
// or tet mesh (MEDIT, TetGen) picked with the file input is baked in the page's worker (the
// bake's own wasm module), opens as the scene "custom" and falls at g as the gallery's bodies do,
// and on the ground comes to rest on it; a file that is not a mesh, or a glTF without its buffer,
// gets a notice naming the problem; Cancel ends a bake and the page runs on; ?asset=URL opens a
// hosted asset and keeps it in the page's URL, and says why where it cannot; painted (by script
// and with the brush) and pinned, a bar baked again deforms more where it was painted soft.
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pause, waitUntilReady, withPage } from './chromium.js';
import { servedDist } from './served-dist.js';
import { boxGltf, boxObj, gridTets, medit, tetgen } from '../wasm/test_meshes.js';

const served = servedDist();
const status = (page) => page.evaluate(() => window.smfem.status);

// Picks files in the "Your model" input and waits for the bake to finish (or fail).
async function pick(page, files) {
  // The last bake's report stays until the new bake's first one replaces it.
  await page.evaluate(() => (window.lastBake = window.smfem.status.bake));
  await page.setInputFiles(
    '#your-model-input',
    files.map(({ name, text }) => ({
      name,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(text),
    })),
  );
  await page.waitForFunction(
    () => {
      const bake = window.smfem.status.bake;
      return bake !== window.lastBake && (['done', 'cancelled'].includes(bake?.stage) || bake?.error);
    },
    null,
    { timeout: 60000 },
  );
  return (await status(page)).bake;
}

// Plays until the simulated time passes `after` s, pauses, and waits for the last step to be
// drawn: [time, the body's centroid height].
async function playUntil(page, after) {
  await page.click('#play');
  await expect.poll(async () => (await status(page)).simTime, { timeout: 30000 }).toBeGreaterThan(after);
  await pause(page);
  const { simTime, motion } = await status(page);
  return [simTime, motion.centroid[1]];
}

// Waits for a bake started by `start` (a click) to finish.
async function bakeAfter(page, start) {
  await page.evaluate(() => (window.lastBake = window.smfem.status.bake));
  await start();
  await page.waitForFunction(
    () => window.smfem.status.bake !== window.lastBake && window.smfem.status.bake.stage === 'done',
    null,
    { timeout: 60000 },
  );
  await page.waitForFunction(() => window.smfem.status.scene === 'custom' && window.smfem.status.ready);
  return (await status(page)).bake;
}

describe('your own model', () => {
  it('bakes picked surfaces and tet meshes in two formats each in the page; each falls at g, and rests on the ground', async () => {
    await withPage(served.browser.context, `${served.server.url}?paused=1`, async ({ page, errors }) => {
      await waitUntilReady(page);
      const beam = tetgen(gridTets(8, 2, 2, 0.04));
      for (const files of [
        [{ name: 'box.obj', text: boxObj([0.3, 0.1, 0.1]) }],
        // Placed and scaled by its node: 0.3 x 0.1 x 0.1 m.
        [
          {
            name: 'box.gltf',
            text: boxGltf([0.15, 0.05, 0.05], { translation: [1, 2, 3], scale: [2, 2, 2] }),
          },
        ],
        [{ name: 'bar.mesh', text: medit(gridTets(8, 2, 2, 0.04)) }],
        [
          { name: 'bar.node', text: beam.node },
          { name: 'bar.ele', text: beam.ele },
        ],
      ]) {
        const name = files[0].name;
        const bake = await pick(page, files);
        expect(bake.error, name).toBeNull();
        expect(bake.stage).toBe('done');
        expect(bake.tets).toBeGreaterThan(20);
        await page.waitForFunction(() => window.smfem.status.scene === 'custom' && window.smfem.status.ready);
        const home = await page.evaluate(() => window.smfem.framedBox());
        // Nothing below it collides (the floor is drawn for reference): between two times it
        // falls g (t2^2 - t1^2) / 2 from rest at t = 0 (implicit Euler at 60 steps a second lags
        // free fall by about a step).
        const [t1, y1] = await playUntil(page, 0.2);
        const [t2, y2] = await playUntil(page, 0.6);
        const free = 0.5 * 9.8 * (t2 ** 2 - t1 ** 2);
        expect((y1 - y2) / free, name).toBeGreaterThan(0.9);
        expect((y1 - y2) / free, name).toBeLessThan(1.02);
        // A recipe names the file it bakes: a glTF scene's is the page's STL of it, so none, and
        // Save recipe says why.
        if (name.endsWith('.gltf')) {
          await page.click('#bake-save-recipe');
          expect((await status(page)).notices.at(-1)).toContain('No recipe for box: a glTF scene is baked');
        }
        const [min, max] = await page.evaluate(() => window.smfem.framedBox());
        expect(max[0] - min[0], `${name}: its length`).toBeCloseTo(0.32, 1);
        // Fallen 1.8 m, far out of the box it was framed on: the framed box widens to 4 times
        // its size at most, then follows the body (widened to the whole fall, the body would
        // shrink to a dot), and it is drawn whole inside the canvas.
        const diagonal = ([low, high]) => Math.hypot(...high.map((x, k) => x - low[k]));
        expect(diagonal([min, max]), `${name}: the framed box`).toBeLessThan(4.01 * diagonal(home));
        const { corners, canvas } = await page.evaluate(() => ({
          corners: Array.from({ length: 8 }, (_, k) =>
            window.smfem.project(
              window.smfem.drawnPoint([k & 1 ? 100 : -100, k & 2 ? 100 : -100, k & 4 ? 100 : -100], 0),
            ),
          ),
          canvas: document.getElementById('view').getBoundingClientRect().toJSON(),
        }));
        for (const { x, y } of corners) {
          expect(x, `${name} drawn inside`).toBeGreaterThan(canvas.left);
          expect(x, `${name} drawn inside`).toBeLessThan(canvas.right);
          expect(y, `${name} drawn inside`).toBeGreaterThan(canvas.top);
          expect(y, `${name} drawn inside`).toBeLessThan(canvas.bottom);
        }
      }
      // On the ground, the bar (0.08 m tall) drops from 0.04 m onto a plane it collides with and
      // comes to rest lying on it, its centroid at half its height.
      await page.check('#bake-ground');
      await page.waitForFunction(() => window.smfem.status.ready && window.smfem.status.floor === 'obstacle');
      const [, landed] = await playUntil(page, 1.5);
      expect(landed).toBeGreaterThan(0.03);
      expect(landed).toBeLessThan(0.045);
      expect((await status(page)).contact.minDistance).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    });
  }, 240000);

  it('says what is wrong with a model it cannot bake, and Cancel ends a bake', async () => {
    await withPage(served.browser.context, `${served.server.url}?paused=1`, async ({ page, errors }) => {
      await waitUntilReady(page);
      const refused = async (files, words) => {
        const bake = await pick(page, files);
        expect(bake.error).toContain(words);
        expect((await status(page)).notices.at(-1)).toContain(words);
        // The line is the running scene's again, not a bake's stage for good.
        expect(await page.locator('#status').textContent()).not.toMatch(/Baking your model/);
      };
      await refused([{ name: 'notes.txt', text: 'hello' }], 'not a model the bake reads');
      // A model baked, then a pick that fails: Save names the model it saves, the one shown.
      expect((await pick(page, [{ name: 'shown.obj', text: boxObj([0.3, 0.1, 0.1]) }])).error).toBeNull();
      await refused([{ name: 'notes.txt', text: 'hello' }], 'not a model the bake reads');
      expect(await page.locator('#bake-save').textContent()).toBe('Save shown.smfem');
      expect(await page.locator('#bake-save-recipe').textContent()).toBe('Save recipe shown.json');
      // Half a box (three faces about a corner) encloses nothing.
      const open = boxObj([0.3, 0.1, 0.1])
        .split('\n')
        .filter((line) => !/^f (3 7 8|3 8 4|5 6 8|5 8 7|2 4 8|2 8 6)$/.test(line))
        .join('\n');
      await refused([{ name: 'open.obj', text: open }], 'open.obj: the surface does not enclose a volume');
      await refused(
        [{ name: 'bad.obj', text: 'v 0 0 0\nf 1 2 3\n' }],
        'bad.obj:2: f: vertex index 2 out of range',
      );
      // A .gltf whose buffer is a file of its own, picked without it.
      const gltf = JSON.parse(boxGltf([0.3, 0.1, 0.1]));
      gltf.buffers[0].uri = 'box.bin';
      await refused(
        [{ name: 'box.gltf', text: JSON.stringify(gltf) }],
        'box.gltf: not read as glTF (it needs box.bin',
      );

      // Cancelled while it computes the eigenmodes; the scene that was open runs on.
      const before = (await status(page)).scene;
      await page.evaluate(() => (window.lastBake = window.smfem.status.bake));
      await page.setInputFiles('#your-model-input', {
        name: 'box.obj',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(boxObj([0.3, 0.2, 0.2])),
      });
      await page.waitForFunction(
        () => window.smfem.status.bake !== window.lastBake && window.smfem.status.bake.stage !== 'load',
      );
      await page.click('#bake-cancel');
      await expect.poll(async () => (await status(page)).bake.stage).toBe('cancelled');
      expect((await status(page)).scene).toBe(before);
      const [t1] = await playUntil(page, 0.1);
      expect(t1).toBeGreaterThan(0.1);

      // A pick while a bake runs replaces it: the second bakes and opens, and nothing says the
      // first was cancelled.
      const notices = (await status(page)).notices.length;
      await page.setInputFiles('#your-model-input', {
        name: 'box.obj',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(boxObj([0.3, 0.2, 0.2])),
      });
      await page.waitForFunction(() => window.smfem.status.bake.stage !== 'load');
      const second = await pick(page, [{ name: 'bar.mesh', text: medit(gridTets(8, 2, 2, 0.04)) }]);
      expect([second.stage, second.error]).toEqual(['done', null]);
      await page.waitForFunction(() => window.smfem.status.scene === 'custom' && window.smfem.status.ready);
      expect(await page.isHidden('#bake-stages')).toBe(true);
      expect((await status(page)).notices.length).toBe(notices);
      expect(errors).toEqual([]);
    });
  }, 180000);

  it('opens a hosted asset from ?asset=URL, keeps it in the URL, and says why a missing, unreachable or unreadable one fails', async () => {
    const dist = fileURLToPath(new URL('../../dist/assets/', import.meta.url));
    const crab = (await readdir(dist)).find((file) => /^crab-.*\.smfem$/.test(file));
    await withPage(
      served.browser.context,
      `${served.server.url}?asset=assets/${crab}&iters=3&paused=1`,
      async ({ page, errors }) => {
        const ready = await waitUntilReady(page);
        expect(ready.scene).toBe('custom');
        expect(ready.solvers.length).toBe(1);
        const [time] = await playUntil(page, 0.1);
        expect(time).toBeGreaterThan(0.1);
        const search = new URLSearchParams(await page.evaluate(() => location.search));
        expect(search.get('asset')).toBe(`assets/${crab}`);
        expect(search.get('iters')).toBe('3');
        expect(search.get('ground')).toBeNull();
        // On the ground: the same asset in a scene with a ground plane, kept in the URL.
        await page.check('#bake-ground');
        await page.waitForFunction(
          () => window.smfem.status.ready && window.smfem.status.floor === 'obstacle',
        );
        await expect.poll(() => page.evaluate(() => location.search)).toContain('ground=1');
        expect(errors).toEqual([]);
      },
    );
    await withPage(
      served.browser.context,
      `${served.server.url}?asset=assets/${crab}&ground=1&paused=1`,
      async ({ page, errors }) => {
        const ready = await waitUntilReady(page);
        expect([ready.scene, ready.floor]).toEqual(['custom', 'obstacle']);
        expect(await page.isChecked('#bake-ground')).toBe(true);
        // On the ground the crab keeps its materials' colours and their legend (the legend shows
        // only where the stage paints the regions).
        const legend = page.locator('#legend');
        expect(await legend.isVisible()).toBe(true);
        expect(await legend.locator('.legend-row').allTextContents()).toEqual([
          'joints: 1.0e6 Pa',
          'shell: 1.0e10 Pa',
        ]);
        expect(errors).toEqual([]);
      },
    );
    await withPage(
      served.browser.context,
      `${served.server.url}?asset=assets/missing.smfem`,
      async ({ page }) => {
        const ready = await waitUntilReady(page);
        expect(ready.scene).not.toBe('custom');
        expect(ready.notices.at(-1)).toContain('asset=assets/missing.smfem could not be downloaded');
        expect(ready.notices.at(-1)).toContain('404');
        // The server answered: no advice on CORS, which did not stop it.
        expect(ready.notices.at(-1)).not.toContain('Access-Control-Allow-Origin');
      },
    );
    // A server the page cannot reach: the fetch fails, and the notice says what a host must send.
    await withPage(
      served.browser.context,
      `${served.server.url}?asset=http://127.0.0.1:1/far.smfem`,
      async ({ page }) => {
        const ready = await waitUntilReady(page);
        expect(ready.scene).not.toBe('custom');
        expect(ready.notices.at(-1)).toContain('asset=http://127.0.0.1:1/far.smfem could not be downloaded');
        expect(ready.notices.at(-1)).toContain('Access-Control-Allow-Origin');
      },
    );
    // A web page where the asset should be: a server answering a path it lacks with its own page
    // (a development server, many static hosts) is said to, not read as a mangled asset.
    await withPage(served.browser.context, `${served.server.url}?asset=index.html`, async ({ page }) => {
      const ready = await waitUntilReady(page);
      expect(ready.scene).not.toBe('custom');
      expect(ready.notices.at(-1)).toMatch(
        /^asset=index\.html could not be downloaded \(\/index\.html: the server answered with a web page, not the file/,
      );
      expect(ready.notices.at(-1)).not.toContain('magic');
    });
    // Bytes that arrive but are no asset: the reader's message, naming the file as the URL does.
    await withPage(
      served.browser.context,
      `${served.server.url}?asset=report/data/cubature.csv`,
      async ({ page }) => {
        const ready = await waitUntilReady(page);
        expect(ready.scene).not.toBe('custom');
        expect(ready.notices.at(-1)).toMatch(
          /^asset=report\/data\/cubature\.csv could not be opened: cubature\.csv: /,
        );
        expect(ready.notices.at(-1)).not.toContain('custom.smfem');
        expect(ready.notices.at(-1)).not.toContain('Access-Control-Allow-Origin');
      },
    );
    // Where the asset does not open, the gallery's scene the URL names opens with the URL's
    // other settings; the moduli and the ground were the model's, and are said not to be used.
    await withPage(
      served.browser.context,
      `${served.server.url}?asset=assets/missing.smfem&scene=crab&solver=fem&iters=5&paused=1&E1=3e6&ground=1`,
      async ({ page }) => {
        const ready = await waitUntilReady(page);
        expect(ready.scene).toBe('crab');
        expect(await page.locator('#solver').inputValue()).toBe('fem');
        expect(await page.locator('#iterations + output').textContent()).toBe('5');
        expect(await page.locator('#status').textContent()).toMatch(/ is paused in your browser /);
        expect(ready.notices).toHaveLength(3);
        expect(ready.notices[0]).toContain('could not be downloaded');
        expect(ready.notices[1]).toMatch(/^ground=1 applies to Your model/);
        expect(ready.notices[2]).toBe('E1=3e6: asset=assets/missing.smfem did not open; it is not used.');
        // The crab's own joints keep their baked modulus.
        expect(await page.locator('#legend .legend-row').first().textContent()).toBe('joints: 1.0e6 Pa');
      },
    );
  }, 120000);

  it('bakes again with painted regions, other modes and cubature, and the lowest points pinned', async () => {
    await withPage(served.browser.context, `${served.server.url}?paused=1`, async ({ page, errors }) => {
      await waitUntilReady(page);
      await expect(page.evaluate(() => window.smfem.paintRegion([0, 0, 0], 0.1, 1e4))).rejects.toThrow(
        'pick a model first',
      );
      // 28 vertices cannot carry the default 16 modes: the bake takes the 5 they do (5 a mode).
      const coarse = await pick(page, [{ name: 'thin.mesh', text: medit(gridTets(6, 1, 1, 0.05)) }]);
      expect([coarse.stage, coarse.modes]).toEqual(['done', 5]);
      const bar = [{ name: 'bar.mesh', text: medit(gridTets(16, 2, 2, 0.025)) }];
      const first = await pick(page, bar);
      expect([first.stage, first.modes, first.pinned]).toEqual(['done', 16, 0]);
      // The line names the model, not the scene's key ("custom"), and that it is paused.
      await expect
        .poll(() => page.locator('#status').textContent())
        .toMatch(/^Your model: bar is paused in your browser/);
      // The bake's own choices fill the options.
      expect(await page.inputValue('#bake-modes')).toBe('16');
      expect(await page.inputValue('#bake-cubature')).toBe(String(first.cubature));
      await expect(page.evaluate(() => window.smfem.paintRegion([0, 0], 0.1, 1e4))).rejects.toThrow(
        'expected a centre',
      );
      // The far half 100 times softer than the default 1 MPa; 8 modes, 100 cubature tets, and
      // the bar's bottom face pinned.
      expect(await page.evaluate(() => window.smfem.paintRegion([0.4, 0.025, 0.025], 0.2, 1e4))).toBe(1);
      expect(await page.textContent('#bake-again')).toBe('Bake again with 1 painted region');
      // Out of the field's range: said in the panel's words, and nothing is baked.
      await page.fill('#bake-modes', '200');
      await page.click('#bake-again');
      expect((await status(page)).notices.at(-1)).toBe('Modes: a whole number from 1 to 64, not 200.');
      expect((await status(page)).bake).toEqual(first);
      await page.fill('#bake-modes', '8');
      // Not set by hand, the cubature follows the modes as the bake chooses it (20 m).
      expect(await page.inputValue('#bake-cubature')).toBe('');
      await page.fill('#bake-cubature', '100');
      await page.check('#bake-pin-lowest');
      await page.evaluate(() => (window.lastBake = window.smfem.status.bake));
      await page.click('#bake-again');
      await page.waitForFunction(
        () => window.smfem.status.bake !== window.lastBake && window.smfem.status.bake.stage === 'done',
        null,
        { timeout: 60000 },
      );
      const again = (await status(page)).bake;
      expect([again.modes, again.cubature]).toEqual([8, 100]);
      expect(again.pinned).toBe(17 * 3); // the 17 x 3 vertices of the bottom face (y = 0)
      await page.waitForFunction(() => window.smfem.status.scene === 'custom' && window.smfem.status.ready);
      // The legend names the painted material; pinned, the bar no longer falls.
      await expect.poll(() => page.locator('#legend').textContent()).toContain('painted 1');
      const [t1, y1] = await playUntil(page, 0.1);
      const [t2, y2] = await playUntil(page, 0.5);
      expect(Math.abs(y2 - y1)).toBeLessThan(0.01 * 0.5 * 9.8 * (t2 ** 2 - t1 ** 2));
      // Save recipe: the recipe that bakes the same model from bar.mesh (the native tool's
      // test bakes one again: tests/native/bake/smfem_bake_cli_test.cpp).
      const [saved] = await Promise.all([page.waitForEvent('download'), page.click('#bake-save-recipe')]);
      expect(saved.suggestedFilename()).toBe('bar.json');
      const recipe = JSON.parse(await readFile(await saved.path(), 'utf8'));
      expect(recipe.geometry).toEqual({ mesh: 'bar.mesh' });
      expect(recipe.subspace).toEqual({ modes: 8, cubature: 100 });
      expect(recipe.materials.map((m) => [m.name, m.youngs, m.where?.sphere?.radius])).toEqual([
        ['painted 1', 1e4, 0.2],
        ['region 0', 1e6, undefined],
      ]);
      expect(recipe.pins.length).toBe(1);
      expect(errors).toEqual([]);
    });
  }, 120000);

  it('bakes the last pick again, even one that failed, and clears the bake notices once a bake works', async () => {
    await withPage(served.browser.context, `${served.server.url}?paused=1`, async ({ page, errors }) => {
      await waitUntilReady(page);
      const bar = [{ name: 'bar.mesh', text: medit(gridTets(16, 2, 2, 0.025)) }];
      expect((await pick(page, bar)).stage).toBe('done');
      const bad = [{ name: 'bad.obj', text: 'v 0 0 0\nf 1 2 3\n' }];
      expect((await pick(page, bad)).error).toContain('bad.obj:2: f: vertex index 2 out of range');
      // The options are there for the failed pick, and Bake again bakes it, not the bar.
      expect(await page.isVisible('#bake-modes')).toBe(true);
      await page.evaluate(() => (window.lastBake = window.smfem.status.bake));
      await page.click('#bake-again');
      await page.waitForFunction(
        () => window.smfem.status.bake !== window.lastBake && window.smfem.status.bake.error,
        null,
        { timeout: 60000 },
      );
      expect((await status(page)).bake.error).toContain('bad.obj:2');
      const shown = () => page.locator('#notices li').allTextContents();
      expect((await shown()).filter((text) => text.includes('bad.obj')).length).toBe(2);
      expect((await pick(page, bar)).stage).toBe('done');
      expect((await shown()).filter((text) => text.includes('bad.obj'))).toEqual([]);
      expect((await status(page)).notices.filter((text) => text.includes('bad.obj')).length).toBe(2);
      expect(errors).toEqual([]);
    });
  }, 120000);

  it('says when a model is likely not in metres, and bakes it again in the units chosen', async () => {
    await withPage(served.browser.context, `${served.server.url}?paused=1`, async ({ page, errors }) => {
      await waitUntilReady(page);
      // A 40 cm bar written in millimetres: read as metres, 400 m long.
      const bar = [{ name: 'bar_mm.mesh', text: medit(gridTets(16, 2, 2, 25)) }];
      expect((await pick(page, bar)).stage).toBe('done');
      await expect.poll(() => page.locator('#description').textContent()).toContain('(400 x 50 x 50 m)');
      const shown = () => page.locator('#notices li').allTextContents();
      const warned = (await shown()).filter((text) => text.includes('bar_mm.mesh: the body is 400 m across'));
      expect(warned.length).toBe(1);
      expect(warned[0]).toContain('Here: set Units, then Bake again.');
      expect(await page.isVisible('#bake-units')).toBe(true);
      // A region painted on the 400 m model goes with it to millimetres (it would miss the 0.4 m
      // bar, and the bake refuse it, at its old coordinates).
      expect(await page.evaluate(() => window.smfem.paintRegion([300, 25, 25], 100, 1e4))).toBe(1);
      await page.selectOption('#bake-units', '0.001');
      await bakeAfter(page, () => page.click('#bake-again'));
      await expect.poll(() => page.locator('#description').textContent()).toContain('(0.4 x 0.05 x 0.05 m)');
      await expect.poll(() => page.locator('#legend').textContent()).toContain('painted 1');
      expect((await shown()).filter((text) => text.includes('m across'))).toEqual([]);
      // In metres it falls at g over its own size: 0.5 g t^2 from rest.
      const [t1, y1] = await playUntil(page, 0.1);
      const [t2, y2] = await playUntil(page, 0.3);
      expect(y1 - y2).toBeGreaterThan(0.9 * 0.5 * 9.8 * (t2 ** 2 - t1 ** 2));
      // The same numbers in inches: a bar 10.16 m long.
      await page.selectOption('#bake-units', '0.0254');
      await bakeAfter(page, () => page.click('#bake-again'));
      await expect.poll(() => page.locator('#description').textContent()).toContain('(10.2 x 1.27 x 1.27 m)');
      // A new pick starts again from metres.
      expect((await pick(page, [{ name: 'bar.mesh', text: medit(gridTets(16, 2, 2, 0.025)) }])).stage).toBe(
        'done',
      );
      expect(await page.inputValue('#bake-units')).toBe('1');
      expect(errors).toEqual([]);
    });
  }, 120000);

  it('paints and pins with the brush; baked again, a drag stretches the soft half more', async () => {
    await withPage(served.browser.context, `${served.server.url}?paused=1`, async ({ page, errors }) => {
      await waitUntilReady(page);
      // A bar 0.4 x 0.05 x 0.05 m along x.
      await pick(page, [{ name: 'bar.mesh', text: medit(gridTets(16, 2, 2, 0.025)) }]);
      await page.waitForFunction(() => window.smfem.status.scene === 'custom' && window.smfem.status.ready);
      // The brush's radius starts at 15 % of the model's size.
      expect(Number(await page.inputValue('#bake-brush-radius'))).toBeCloseTo(0.06, 3);
      const click = async (rest) => {
        const at = await page.evaluate((p) => window.smfem.project(p), rest);
        await page.mouse.click(at.x, at.y);
      };
      // Its far half 100 times softer than the default 1 MPa, a few vertices at its near end pinned.
      await page.selectOption('#bake-brush', 'paint');
      // The line says what a click does now (it said "Drag it").
      await expect
        .poll(() => page.locator('#status').textContent())
        .toContain("Click on it to paint the brush's material");
      // A radius of 0 is refused in the panel's words.
      await page.fill('#bake-brush-radius', '0');
      await click([0.39, 0.04, 0.05]);
      expect((await status(page)).notices.at(-1)).toBe('The brush needs a Radius (m) above 0.');
      await page.fill('#bake-brush-radius', '0.2');
      await page.fill('#bake-brush-youngs', '1e4');
      await click([0.39, 0.04, 0.05]);
      await page.selectOption('#bake-brush', 'pin');
      await page.fill('#bake-brush-radius', '0.03');
      await click([0.015, 0.04, 0.05]);
      expect(await page.textContent('#bake-again')).toBe(
        'Bake again with 1 painted region and 1 pinned region',
      );
      await page.selectOption('#bake-brush', 'drag');
      await expect.poll(() => page.locator('#status').textContent()).toContain('Drag it with the mouse');
      const baked = await bakeAfter(page, () => page.click('#bake-again'));
      expect(baked.pinned).toBeGreaterThan(0);
      await expect.poll(() => page.locator('#legend').textContent()).toContain('painted 1');

      // Held by its far end and pulled along the bar for a second (gravity sags it meanwhile).
      const from = await page.evaluate(() => window.smfem.project([0.39, 0.04, 0.05]));
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      expect((await status(page)).dragging).toBe(true);
      await page.focus('#play');
      await page.keyboard.press('Space');
      for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + 6 * i, from.y);
      await expect.poll(async () => (await status(page)).simTime, { timeout: 20000 }).toBeGreaterThan(1);
      const [root, middle, end] = await page.evaluate(() =>
        [0, 0.2, 0.4].map((x) => window.smfem.drawnPoint([x, 0.025, 0.05])),
      );
      await page.mouse.up();
      const stretch = (a, b) => Math.hypot(...a.map((x, k) => b[k] - x)) - 0.2;
      const [stiff, soft] = [stretch(root, middle), stretch(middle, end)];
      console.log(
        `dragged bar: stiff half stretched ${(1000 * stiff).toFixed(2)} mm, soft half ${(1000 * soft).toFixed(2)} mm`,
      );
      expect(soft).toBeGreaterThan(0.002);
      expect(soft).toBeGreaterThan(5 * Math.abs(stiff));
      // Pinned where the brush clicked: the near end stays where it was while the far end moves.
      expect(Math.hypot(root[0], root[1] - 0.025, root[2] - 0.05)).toBeLessThan(0.001);
      expect(Math.hypot(end[0] - 0.4, end[1] - 0.025, end[2] - 0.05)).toBeGreaterThan(0.005);
      expect(errors).toEqual([]);
    });
  }, 120000);
});
