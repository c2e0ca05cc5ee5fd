// Every scene of the gallery in headless Chromium (production build, isolation headers, so the
// threaded build): it loads, simulates, draws something that moves; a drag pulls the body; the
// URL restores the settings. A screenshot of each scene is kept in test-results/browser/.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { waitUntilReady, withPage } from './chromium.js';
import { nonBackgroundFraction, pixelDifference } from './screenshots.js';
import { scenes } from '../../web/src/scenes.js';
import { artifacts, servedDist } from './served-dist.js';

const sceneNames = Object.keys(scenes);
const served = servedDist();

// What a scene's description may promise, and the control (or link) that must then be on the
// page: a description that tells the user to use something the page lacks is a defect.
const promises = [
  { words: /material model/i, selector: '#material-model' },
  { words: /modulus you vary|vary (its|the) modul/i, selector: '[id^="youngs-"]' },
  { words: /compare how|side by side with FEM|where FEM/i, selector: '#compare, #solver' },
  { words: /EigenFit|turn it off/i, selector: '#eigenfit' },
  { words: /\bDrop\b/, selector: '#drop' },
  { words: /report linked/i, selector: '#figure-link a' },
  { words: /\b(sweep|vary|change|raise|lower|set)\s+(the\s+)?cubature/i, selector: '#cubature' },
  { words: /\b(raise|lower|change|set)\s+(the\s+)?gravity/i, selector: '#gravity' },
  { words: /\b(raise|lower|change|set)\s+(the\s+)?iterations/i, selector: '#iterations' },
];

describe.each(sceneNames)('scene %s', (scene) => {
  it('loads, simulates and draws a body that moves', async () => {
    // Opened paused: the first picture is the rest state; then it runs at least 0.3 s, until
    // the picture differs from the rest state (a stiff bar sags by a pixel or two, so the time
    // that takes depends on how finely the browser draws: render/renderQuality.js), and is
    // paused again.
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=${scene}&paused=1`,
      async ({ page, errors }) => {
        const status = await waitUntilReady(page);
        expect(status.scene).toBe(scene);
        const description = await page.locator('#description').textContent();
        for (const { words, selector } of promises.filter(({ words }) => words.test(description))) {
          expect(await page.locator(selector).first().isVisible(), `${words} needs ${selector}`).toBe(true);
        }
        const rest = await page.locator('#view').screenshot();
        const line = page.locator('#status');
        expect(await line.textContent()).toMatch(/ is paused in your browser /);
        await page.click('#play');
        await expect.poll(() => line.textContent()).toMatch(/ is running in your browser /);
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.simTime), { timeout: 20000 })
          .toBeGreaterThan(0.3);
        await expect
          .poll(async () => pixelDifference(page, rest, await page.locator('#view').screenshot()), {
            timeout: 20000,
          })
          .toBeGreaterThan(0.001);
        await page.click('#play');
        const later = await page.locator('#view').screenshot({ path: `${artifacts}/scene-${scene}.png` });
        expect(await nonBackgroundFraction(page, later)).toBeGreaterThan(0.02);
        expect(errors).toEqual([]);
      },
    );
  });
});

describe('network', () => {
  it.each(['crab', 'playground', 'material-models'])(
    'fetches each asset and the wasm binary of %s once',
    async (scene) => {
      const requests = [];
      const record = (request) => requests.push(new URL(request.url()).pathname);
      served.browser.context.on('request', record);
      try {
        await withPage(
          served.browser.context,
          `${served.server.url}?scene=${scene}`,
          async ({ page, errors }) => {
            await waitUntilReady(page);
            await expect
              .poll(() => page.evaluate(() => window.smfem.status.frame), { timeout: 20000 })
              .toBeGreaterThan(5);
            expect(errors).toEqual([]);
          },
        );
      } finally {
        served.browser.context.off('request', record);
      }
      const fetched = requests.filter((path) => /\.(smfem|wasm)$/.test(path));
      expect(fetched.length).toBeGreaterThan(1); // the scene's assets and the module's binary
      const counts = new Map();
      for (const path of fetched) counts.set(path, (counts.get(path) ?? 0) + 1);
      expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
    },
  );
});

describe('the report', () => {
  it('every scene measured in the paper’s report links to its section, which the build serves', async () => {
    const measured = Object.entries(scenes).filter(([, s]) => s.figure);
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=crab&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        for (const [name, { figure }] of measured) {
          if (name !== 'crab') {
            await page.selectOption('#scene-select', name);
            await expect
              .poll(() => page.evaluate(() => window.smfem.status.scene), { timeout: 20000 })
              .toBe(name);
          }
          const link = page.locator('#figure-link a');
          await expect.poll(() => link.textContent(), { timeout: 20000 }).toContain(figure.label);
          await expect.poll(() => link.isVisible(), { timeout: 20000 }).toBe(true);
          const href = await link.evaluate((a) => a.href);
          expect(href).toMatch(new RegExp(`report/index\\.html#${figure.id}$`));
          const report = await page.request.get(href);
          expect(report.ok(), href).toBe(true);
          expect(await report.text()).toContain(`<section id="${figure.id}">`);
        }
        await page.selectOption('#scene-select', 'bunny');
        await expect.poll(() => page.locator('#figure-link').isHidden()).toBe(true);
        expect(errors).toEqual([]);
      },
    );
  });
});

describe('interaction', () => {
  it('Back after a scene picked from the list opens the scene before; Link says Copied, then Link', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=crab&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        await page.selectOption('#scene-select', 'candy');
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.scene), { timeout: 20000 })
          .toBe('candy');
        await expect.poll(() => new URL(page.url()).searchParams.get('scene')).toBe('candy');
        await page.goBack();
        await waitUntilReady(page);
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.scene), { timeout: 20000 })
          .toBe('crab');
        await expect.poll(() => new URL(page.url()).searchParams.get('scene')).toBe('crab');
        // The page's URL follows every setting: a "Copied" that stayed would vouch for an old one.
        await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
        await page.click('#copy-link');
        await expect.poll(() => page.locator('#copy-link').textContent()).toBe('Copied');
        await expect.poll(() => page.locator('#copy-link').textContent(), { timeout: 5000 }).toBe('Link');
        expect(errors).toEqual([]);
      },
    );
  });

  it('a drag grabs the body and changes its shape', async () => {
    // Weightless and without forces, the beam moves only if the drag pulls it.
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=beam&g=0&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        const box = await page.locator('#view').boundingBox();
        const panel = await page.locator('#panel').boundingBox();
        const before = await page.locator('#view').screenshot();
        // The camera looks at the beam's centre, drawn mid-way across the canvas right of the panel.
        const x = box.x + box.width / 2 + (panel.x + panel.width - box.x) / 2;
        const y = box.y + box.height / 2;
        await page.mouse.move(x, y);
        await page.mouse.down();
        expect(await page.evaluate(() => window.smfem.status.dragging)).toBe(true);
        // Play from the keyboard: the mouse button stays down, holding the beam.
        await page.focus('#play');
        await page.keyboard.press('Space');
        for (let i = 1; i <= 10; i++) await page.mouse.move(x + 4 * i, y - 8 * i);
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.simTime), { timeout: 20000 })
          .toBeGreaterThan(0.5);
        // While still held: released, the beam swings back through its rest shape, and a screenshot
        // taken at a moment that depends on the machine's load could catch it there.
        const after = await page.locator('#view').screenshot({ path: `${artifacts}/drag-beam.png` });
        await page.mouse.up();
        expect(await page.evaluate(() => window.smfem.status.dragging)).toBe(false);
        expect(await pixelDifference(page, before, after)).toBeGreaterThan(0.005);
        expect(errors).toEqual([]);
      },
    );
  });

  it('runs MFEM and FEM side by side in lockstep', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=crab&compare=1`,
      async ({ page, errors }) => {
        const status = await waitUntilReady(page);
        expect(status.solvers).toEqual(['mfem', 'fem']);
        expect(status.labels).toEqual(['Mixed FEM (MFEM), 2 iterations', 'FEM, 2 iterations']);
        expect(await page.locator('#compare').isChecked()).toBe(true);
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.simTime), { timeout: 20000 })
          .toBeGreaterThan(0.5);
        await page.locator('#view').screenshot({ path: `${artifacts}/compare-crab.png` });
        // Beside the paper's variant of MFEM instead of FEM.
        await page.locator('#against').selectOption('mfem-paper');
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.solvers), { timeout: 20000 })
          .toEqual(['mfem', 'mfem-paper']);
        expect(await page.evaluate(() => window.smfem.status.labels)).toEqual([
          'Mixed FEM (MFEM), 2 iterations',
          "MFEM, the paper's variant, 2 iterations",
        ]);
        // The labels follow the controls: three iterations.
        await page.locator('#iterations').fill(String(Math.log10(3))); // a logarithmic slider
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.labels[1]), { timeout: 20000 })
          .toBe("MFEM, the paper's variant, 3 iterations");
        expect(new URL(page.url()).searchParams.get('against')).toBe('mfem-paper');
        expect(errors).toEqual([]);
      },
    );
  });

  // Issue 25: ticking the box while the scene runs froze it (a step answered by the two new
  // simulators was drawn on the one body of before).
  it('keeps running when "side by side" is ticked while the scene runs, and gives the chosen solver back when unticked', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=crab&solver=fem`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.simTime), { timeout: 20000 })
          .toBeGreaterThan(0.1);
        await page.locator('#compare').check();
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.solvers), { timeout: 20000 })
          .toEqual(['mfem', 'fem']);
        const time = await page.evaluate(() => window.smfem.status.simTime);
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.simTime), { timeout: 20000 })
          .toBeGreaterThan(time + 0.5);
        // Unticked: FEM alone again, as chosen before (side by side had left MFEM in its place).
        await page.locator('#compare').uncheck();
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.solvers), { timeout: 20000 })
          .toEqual(['fem']);
        expect(await page.locator('#solver').inputValue()).toBe('fem');
        expect(new URL(page.url()).searchParams.get('solver')).toBe('fem');
        expect(errors).toEqual([]);
      },
    );
  });

  it("keeps the keyboard's place: a control keeps the focus, and arrowing through the scenes opens the one it rests on", async () => {
    await withPage(served.browser.context, `${served.server.url}?scene=bunny`, async ({ page, errors }) => {
      await waitUntilReady(page);
      const activeId = () => page.evaluate(() => document.activeElement?.id);
      // Ticked by Space: the panel is rebuilt for the side by side, the box keeps the focus (it
      // went back to the page's start).
      await page.locator('#compare').focus();
      await page.keyboard.press('Space');
      await expect
        .poll(() => page.evaluate(() => window.smfem.status.solvers), { timeout: 20000 })
        .toEqual(['mfem', 'fem']);
      expect(await activeId()).toBe('compare');
      // Two arrows on the closed scene list: one scene opened, two down, not each on the way.
      const options = await page
        .locator('#scene-select option')
        .evaluateAll((all) => all.map((o) => o.value));
      const target = options[options.indexOf('bunny') + 2];
      const opened = [];
      await page.exposeFunction('sceneOpened', (scene) => opened.push(scene));
      await page.evaluate(() => {
        let last = window.smfem.status.scene;
        setInterval(() => {
          const now = window.smfem.status.scene;
          if (now !== last) window.sceneOpened((last = now));
        }, 20);
      });
      await page.locator('#scene-select').focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect
        .poll(() => page.evaluate(() => window.smfem.status.ready && window.smfem.status.scene), {
          timeout: 20000,
        })
        .toBe(target);
      expect(opened).toEqual([target]);
      expect(await activeId()).toBe('scene-select');
      expect(errors).toEqual([]);
    });
  });

  // Local deformations on a body of the gallery (its asset with the tet mesh, loaded when asked):
  // side by side, the same hand pulls the bunny on both copies; the left dents where it grabs
  // (the drag's patch: a pull of 12 cm drew a dent of 11 mm under the hand in Node), the right,
  // on its global modes alone, cannot.
  it('drags the bunny with and without local deformations side by side', async () => {
    // Render vertices of the bunny's head and flanks at rest (the first the pointer can grab is
    // pulled; the bunny stands on its pinned base).
    const candidates = [
      [-0.1086, 0.1832, 0.1061],
      [0.1076, 0.1542, 0.0357],
      [-0.1539, 0.1789, 0.0437],
      [0.000232, 0.3, -0.043362],
    ];
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=bunny&compareLocal=1&g=0&paused=1`,
      async ({ page, errors }) => {
        const status = await waitUntilReady(page);
        expect(status.solvers).toEqual(['mfem', 'mfem-global-only']);
        expect(status.labels).toEqual(['Local deformations', 'Global modes alone']);
        expect(await page.locator('#compare-local').isChecked()).toBe(true);
        expect(await page.locator('#local-deformations').isChecked()).toBe(true);
        expect(await page.locator('#local-deformations').isDisabled()).toBe(true);
        const drawn = (rest, body) => page.evaluate(([p, b]) => window.smfem.drawnPoint(p, b), [rest, body]);
        let grabbed = null;
        let at = null;
        for (const rest of candidates) {
          at = await page.evaluate((p) => window.smfem.project(p), await drawn(rest, 0));
          await page.mouse.move(at.x, at.y);
          await page.mouse.down();
          if (await page.evaluate(() => window.smfem.status.dragging)) {
            grabbed = rest;
            break;
          }
          await page.mouse.up();
        }
        expect(grabbed).not.toBeNull();
        const [left0, right0] = [await drawn(grabbed, 0), await drawn(grabbed, 1)];
        await page.focus('#play');
        await page.keyboard.press('Space');
        for (let i = 1; i <= 10; i++) await page.mouse.move(at.x, at.y - 6 * i);
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.simTime), { timeout: 30000 })
          .toBeGreaterThan(1.0);
        const [left, right] = [await drawn(grabbed, 0), await drawn(grabbed, 1)];
        const dents = await page.evaluate(
          (p) => [0, 1].map((b) => Math.hypot(...window.smfem.dentAt(p, b))),
          grabbed,
        );
        const patches = await page.evaluate(() => window.smfem.status.motion.localPatches);
        await page.locator('#view').screenshot({ path: `${artifacts}/local-bunny-side-by-side.png` });
        await page.mouse.up();
        const rise = [left[1] - left0[1], right[1] - right0[1]];
        console.log(
          `bunny pulled up ${rise.map((r) => (1000 * r).toFixed(1)).join(' and ')} mm (with and without local ` +
            `deformations); the dent under the hand ${(1000 * dents[0]).toFixed(1)} mm; ${patches} patch(es)`,
        );
        expect(patches).toBeGreaterThanOrEqual(1);
        for (const r of rise) expect(r).toBeGreaterThan(0.02); // the hand pulls both
        expect(dents[0]).toBeGreaterThan(0.003);
        expect(dents[1]).toBe(0);
        expect(errors).toEqual([]);
      },
    );
  });

  // The box on the default scene: ticked, the page loads the crab with its tet mesh and runs on
  // (the URL says so); unticked, it runs on its global modes alone again.
  it("turns the crab's local deformations on and off while it runs", async () => {
    await withPage(served.browser.context, `${served.server.url}?scene=crab`, async ({ page, errors }) => {
      await waitUntilReady(page);
      expect(await page.locator('#local-deformations').isChecked()).toBe(false);
      await page.locator('#local-deformations').check();
      await expect.poll(() => new URL(page.url()).searchParams.get('local'), { timeout: 30000 }).toBe('1');
      await waitUntilReady(page);
      const time = await page.evaluate(() => window.smfem.status.simTime);
      await expect
        .poll(() => page.evaluate(() => window.smfem.status.simTime), { timeout: 30000 })
        .toBeGreaterThan(time + 0.5);
      expect(await page.locator('#local-deformations').isChecked()).toBe(true);
      await page.locator('#local-deformations').uncheck();
      await expect.poll(() => new URL(page.url()).searchParams.get('local'), { timeout: 30000 }).toBeNull();
      expect(errors).toEqual([]);
    });
  });

  it('names the solver that is running in the plots, their legend and the CSV after a switch', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=crab&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        await page.locator('#solver').selectOption('fem');
        await expect.poll(() => page.evaluate(() => window.smfem.status.solvers)).toEqual(['fem']);
        for (let i = 1; i <= 3; ++i) {
          const before = await page.evaluate(() => window.smfem.status.simTime);
          await page.click('#step');
          await expect.poll(() => page.evaluate(() => window.smfem.status.simTime)).toBeGreaterThan(before);
        }
        await page.locator('#analysis summary').click();
        const legends = page.locator('#plots .u-legend');
        await expect.poll(() => legends.count()).toBeGreaterThan(0);
        for (const text of await legends.allTextContents()) {
          expect(text).toContain('FEM');
          expect(text).not.toContain('Mixed');
        }
        await page.locator('#analysis').screenshot({ path: `${artifacts}/plots-fem.png` });
        const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
        const csv = await readFile(await download.path(), 'utf8');
        const [header, ...rows] = csv.trim().split('\n');
        expect(header.split(',')).toEqual(['time', 'kinetic_fem', 'angular_fem', 'decrement_fem']);
        expect(rows.length).toBeGreaterThanOrEqual(3);
        expect(errors).toEqual([]);
      },
    );
  });

  it('colours the body by the weight of a chosen mode, then by cubature cluster', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=beam&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        const plain = await page.locator('#view').screenshot();
        await page.selectOption('#colour-mode', '2');
        expect(new URL(page.url()).searchParams.get('mode')).toBe('2');
        const coloured = await page.locator('#view').screenshot({ path: `${artifacts}/mode-2-beam.png` });
        expect(await pixelDifference(page, plain, coloured)).toBeGreaterThan(0.01);
        // The cubature view: clusters in their own colours, representative tets as dots.
        await page.selectOption('#colour-mode', 'clusters');
        expect(new URL(page.url()).searchParams.get('clusters')).toBe('1');
        const clusters = await page.locator('#view').screenshot({ path: `${artifacts}/clusters-beam.png` });
        expect(await pixelDifference(page, coloured, clusters)).toBeGreaterThan(0.01);
        expect(errors).toEqual([]);
      },
    );
  });

  it('paints the crab’s materials by their moduli, names them in a legend that follows the sliders', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=crab&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        const legend = page.locator('#legend');
        expect(await legend.isVisible()).toBe(true);
        const rows = legend.locator('.legend-row');
        expect(await rows.allTextContents()).toEqual(['joints: 1.0e6 Pa', 'shell: 1.0e10 Pa']);
        const swatches = await legend
          .locator('.legend-swatch')
          .evaluateAll((spans) => spans.map((s) => getComputedStyle(s).backgroundColor));
        expect(new Set(swatches).size).toBe(2);
        const materials = await page.locator('#view').screenshot({ path: `${artifacts}/materials-crab.png` });
        await page.screenshot({ path: `${artifacts}/materials-crab-page.png` });
        // The legend follows the joints' slider; two decades off the baked ratio, the page says
        // the subspace is no longer to be trusted, and stops saying so back at the bake's moduli.
        const note = page.locator('#trust-note');
        expect(await note.isVisible()).toBe(false);
        await page.locator('#youngs-0').fill('8');
        await expect.poll(() => rows.first().textContent(), { timeout: 20000 }).toBe('joints: 1.0e8 Pa');
        expect(await note.textContent()).toMatch(/baked for shell 1e4 times stiffer than joints/);
        await page.locator('#youngs-0').fill('6');
        await expect.poll(() => note.isVisible(), { timeout: 20000 }).toBe(false);
        // Another view hides it, and paints the body differently.
        await page.selectOption('#colour-mode', '1');
        expect(await legend.isVisible()).toBe(false);
        const mode = await page.locator('#view').screenshot();
        expect(await pixelDifference(page, materials, mode)).toBeGreaterThan(0.01);
        expect(errors).toEqual([]);
      },
    );
  });

  it('says which URL values it refused, changed or could not apply, in dismissible notices and in status', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=nonexistent&dt=-1&mode=999&strain=1&paused=1`,
      async ({ page, errors }) => {
        const status = await waitUntilReady(page);
        expect(status.scene).toBe('crab');
        expect(status.notices).toHaveLength(4);
        expect(status.notices[0]).toBe(
          'scene=nonexistent is not a scene of the gallery: the default is used.',
        );
        expect(status.notices[1]).toBe('dt=-1 is outside [1e-5, 0.1] s: 1e-5 is used.');
        // One notice for mode=999, by the scene's own count (it said 64 first, then 16).
        expect(status.notices[2]).toBe('mode=999: this scene has 16 modes; mode 16 is shown.');
        // The strain view is a shell's or a rod's: the crab, a volume, has no edges to colour.
        expect(status.notices[3]).toBe('strain=1 does not apply to the scene "Crab": it is off.');
        expect(new URL(page.url()).searchParams.get('mode')).toBe('16');
        expect(new URL(page.url()).searchParams.has('strain')).toBe(false);
        const shown = page.locator('#notices li');
        await expect.poll(() => shown.count()).toBe(4);
        await page.screenshot({ path: `${artifacts}/url-notices.png` });
        await shown.first().getByRole('button', { name: 'dismiss this notice' }).click();
        await expect.poll(() => shown.count()).toBe(3);
        expect(errors).toEqual([]);
      },
    );
  });

  it("shows a slider for every material, the octobot's stiff core included", async () => {
    // The bake's cubature samples every material region (at least 3 tets each), so
    // the core's modulus reaches the solver; the note for an unsampled material does not show.
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=octobot&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        expect(await page.locator('#youngs-0').count()).toBe(1);
        expect(await page.locator('#youngs-1').count()).toBe(1);
        expect(await page.locator('.unsampled').count()).toBe(0);
        expect(errors).toEqual([]);
      },
    );
  });

  it("moves differently when a material slider moves: the octobot's core, the swordsman's sword", async () => {
    // Every slider shown must change the simulation (a region without cubature tets once gave
    // bit-identical runs at 1e3 and 1e12 Pa). Same scene, same steps, the region's modulus
    // from the URL at the baked value and far below it: the body must move otherwise.
    const motionAfterSteps = async (query) =>
      withPage(served.browser.context, `${served.server.url}?${query}&paused=1`, async ({ page, errors }) => {
        await waitUntilReady(page);
        // Ten steps, one per click, each awaited in the page (a click while a step is in flight
        // is ignored).
        await page.evaluate(async () => {
          for (let i = 0; i < 10; ++i) {
            const before = window.smfem.status.simTime;
            document.getElementById('step').click();
            while (window.smfem.status.simTime === before) await new Promise((r) => setTimeout(r, 5));
          }
        });
        expect(errors).toEqual([]);
        return page.evaluate(() => window.smfem.status.motion);
      });
    for (const [scene, region, soft] of [
      ['octobot', 0, '1e4'], // the core, baked at 1e8 Pa
      ['swordsman', 0, '1e6'], // the sword, baked at 1e12 Pa
    ]) {
      const baked = await motionAfterSteps(`scene=${scene}&dt=0.01`);
      const softened = await motionAfterSteps(`scene=${scene}&dt=0.01&E${region}=${soft}`);
      expect(baked, scene).not.toBeNull();
      const moved = Math.hypot(...baked.centroid.map((x, d) => x - softened.centroid[d]));
      const energyChange = Math.abs(baked.elastic - softened.elastic) / Math.max(baked.elastic, 1e-12);
      expect(moved > 1e-6 || energyChange > 1e-3, `${scene}: region ${region} at ${soft} Pa`).toBe(true);
    }
  });

  it("returns a slider to the scene's own value, not the nearest step of its grid", async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=beam&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        const dt = () => new URL(page.url()).searchParams.get('dt');
        const g = () => new URL(page.url()).searchParams.get('g');
        const [dt0, g0] = [dt(), g()];
        for (const id of ['#timestep', '#gravity']) {
          await page.focus(id);
          await page.keyboard.press('ArrowRight');
          await page.keyboard.press('ArrowLeft');
        }
        expect(dt()).toBe(dt0);
        expect(g()).toBe(g0);
        expect(errors).toEqual([]);
      },
    );
  });

  it('restores its settings from the URL', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=crab&solver=fem&iters=3&dt=0.01&E0=2e9`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        expect(await page.locator('#solver').inputValue()).toBe('fem');
        expect(await page.locator('#iterations + output').textContent()).toBe('3');
        expect(await page.locator('#timestep + output').textContent()).toBe('10.0 ms');
        expect(await page.locator('#youngs-0 + output').textContent()).toBe('2.0e9 Pa');
        // The page writes its state back into the URL, so a copied link reopens the same setup.
        const search = new URL(page.url()).searchParams;
        expect(search.get('solver')).toBe('fem');
        expect(search.get('iters')).toBe('3');
        // Said in words to a screen reader, not as the slider's logarithmic position.
        expect(await page.locator('#youngs-0').getAttribute('aria-valuetext')).toBe('2.0e9 Pa');
        const iterations = page.locator('#iterations');
        expect(await iterations.getAttribute('aria-valuetext')).toBe('3 iterations');
        // An arrow key moves a whole iteration, not a hundredth of a decade.
        await iterations.focus();
        await page.keyboard.press('ArrowLeft');
        await page.keyboard.press('ArrowLeft');
        expect(await iterations.getAttribute('aria-valuetext')).toBe('1 iteration');
        await expect.poll(() => new URL(page.url()).searchParams.get('iters')).toBe('1');
        await page.keyboard.press('ArrowRight');
        expect(await page.locator('#iterations + output').textContent()).toBe('2');
        await expect.poll(() => new URL(page.url()).searchParams.get('iters')).toBe('2');
        expect(errors).toEqual([]);
      },
    );
  });
});

describe('the keyboard', () => {
  it('orbits with the arrow keys, grabs the body at the centre with G and pulls it with the arrows', async () => {
    // The beam weightless: at rest until the keyboard's hand pulls it.
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=beam&g=0`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        const drawnAt = () => page.evaluate(() => window.smfem.project([0.5, 0, 0]));
        const before = await drawnAt();
        await page.locator('#view').focus();
        await page.keyboard.press('ArrowLeft');
        await page.keyboard.press('ArrowLeft');
        const turned = await drawnAt();
        expect(Math.hypot(turned.x - before.x, turned.y - before.y)).toBeGreaterThan(5);

        await page.keyboard.press('g');
        expect((await page.evaluate(() => window.smfem.status)).dragging).toBe(true);
        for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+ArrowUp');
        await expect
          .poll(() => page.evaluate(() => window.smfem.status.motion?.centroid[1] ?? 0), { timeout: 20000 })
          .toBeGreaterThan(1e-3);
        await page.keyboard.press('Escape');
        expect((await page.evaluate(() => window.smfem.status)).dragging).toBe(false);
        expect(errors).toEqual([]);
      },
    );
  });
});
