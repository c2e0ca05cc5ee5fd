// The scenes with contact in headless Chromium (production build, threaded): a drag picks any
// body and pulls it, a drag on an obstacle moves it in the solver (never into the floor), Drop
// puts the bodies back in the air and keeps the obstacles where they were drawn, and the contact
// points can be shown.
// The page says where a point of the scene is drawn (window.smfem.project), so the pointer goes
// where a body or an obstacle is, wherever the camera stands.
import { describe, expect, it } from 'vitest';
import { pause, waitUntilReady, withPage } from './chromium.js';
import { pixelDifference } from './screenshots.js';
import { artifacts, servedDist } from './served-dist.js';

const served = servedDist();

// assets/scenes/contact/playground.json: obstacle 2 is the box (centre [0.3, 0.06, 0], half
// extents 0.12, 0.06, 0.12); body 1 the ball (radius 0.06) starting at [0.28, 0.3, 0.03].
const boxFront = [0.3, 0.06, 0.125];
const ballCentre = [0.28, 0.3, 0.03];

const status = (page) => page.evaluate(() => window.smfem.status);
const drawnAt = (page, point) => page.evaluate((p) => window.smfem.project(p), point);

// Holds the pointer at `from` and moves it by (dx, dy) pixels in steps, playing meanwhile.
async function dragWhilePlaying(page, from, dx, dy) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  expect((await status(page)).dragging).toBe(true);
  await page.focus('#play');
  await page.keyboard.press('Space');
  for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + (dx * i) / 10, from.y + (dy * i) / 10);
}

describe('scenes with contact', () => {
  it('moves an obstacle by a drag, and Drop keeps it there', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=playground&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        await dragWhilePlaying(page, await drawnAt(page, boxFront), -120, 0);
        await expect
          .poll(async () => Math.abs((await status(page)).contact?.obstacleOffsets[2][0] ?? 0), {
            timeout: 20000,
          })
          .toBeGreaterThan(0.05);
        await page.mouse.up();
        expect((await status(page)).dragging).toBe(false);
        const moved = (await status(page)).contact.obstacleOffsets[2];
        // Dragged left, along the camera's plane: x falls; the other obstacles stay.
        expect(moved[0]).toBeLessThan(-0.05);
        expect((await status(page)).contact.obstacleOffsets[1]).toEqual([0, 0, 0]);
        await page.locator('#view').screenshot({ path: `${artifacts}/contact-obstacle-drag.png` });

        // Paused first, so that the time seen next is the dropped scene's.
        await page.click('#play');
        await page.click('#drop');
        await expect.poll(async () => (await status(page)).simTime).toBe(0);
        await page.click('#play');
        await expect.poll(async () => (await status(page)).simTime, { timeout: 20000 }).toBeGreaterThan(0.3);
        const after = (await status(page)).contact;
        // The bodies start again in the air (the ball above where the box was), the box goes back
        // to where it was dragged.
        expect(after.obstacleOffsets[2][0]).toBeLessThan(-0.05);

        // Dragged down hard into the floor (y = 0, the box's bottom at rest): it slides along
        // the floor, never under it, and Drop keeps it where it was drawn.
        const front = boxFront.map((x, i) => x + after.obstacleOffsets[2][i]);
        await page.click('#play');
        await dragWhilePlaying(page, await drawnAt(page, front), 0, 200);
        await expect.poll(async () => (await status(page)).simTime, { timeout: 20000 }).toBeGreaterThan(0.6);
        await page.mouse.up();
        // (Released, the box may still be on its way to the hand's last target: read where it
        // is drawn once paused.)
        await pause(page);
        const pressed = (await status(page)).contact.obstacleOffsets[2];
        expect(pressed[1]).toBeGreaterThanOrEqual(-1e-9);
        await page.click('#drop');
        await expect.poll(async () => (await status(page)).simTime).toBe(0);
        await page.click('#play');
        await expect.poll(async () => (await status(page)).simTime, { timeout: 20000 }).toBeGreaterThan(0.3);
        const dropped = (await status(page)).contact.obstacleOffsets[2];
        expect(dropped[1]).toBeGreaterThanOrEqual(-1e-9);
        expect(Math.hypot(...dropped.map((x, i) => x - pressed[i]))).toBeLessThan(0.01);
        expect(errors).toEqual([]);
      },
    );
  });

  it('draws an obstacle dragged while paused where the hand leaves it, and Drop keeps it there', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=playground&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        expect(await page.locator('#description').textContent()).toContain(
          'Drag any body or the grey obstacles',
        );
        for (let i = 0; i < 3; i++) await page.click('#step');
        await expect.poll(async () => (await status(page)).frame).toBeGreaterThan(0);
        const before = await page.locator('#view').screenshot();
        const from = await drawnAt(page, boxFront);
        await page.keyboard.down('Shift'); // the box even where a body lies over it
        await page.mouse.move(from.x, from.y);
        await page.mouse.down();
        for (let i = 1; i <= 10; i++) await page.mouse.move(from.x - 12 * i, from.y);
        await page.mouse.up();
        await page.keyboard.up('Shift');
        // Paused, no step moves it: it is drawn where the hand left it all the same.
        expect((await status(page)).contact.obstacleOffsets[2]).toEqual([0, 0, 0]);
        const moved = await page.locator('#view').screenshot();
        expect(await pixelDifference(page, before, moved)).toBeGreaterThan(0.005);
        // Drop, then one step: the box is where it was dragged, not where it started (Drop took
        // the last step's place, from before the drag).
        await page.click('#drop');
        await page.click('#step');
        await expect
          .poll(async () => (await status(page)).contact?.obstacleOffsets[2][0] ?? 0)
          .toBeLessThan(-0.05);
        expect(errors).toEqual([]);
      },
    );
  });

  it('picks any body: a drag lifts the ball against gravity', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=playground&paused=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        await dragWhilePlaying(page, await drawnAt(page, ballCentre), 0, -150);
        await expect.poll(async () => (await status(page)).simTime, { timeout: 20000 }).toBeGreaterThan(1);
        const held = (await status(page)).contact;
        await page.mouse.up();
        expect(held.centroids[1][1]).toBeGreaterThan(ballCentre[1] + 0.05);
        // The others fell onto their obstacles.
        expect(held.centroids[0][1]).toBeLessThan(0.45);
        expect(errors).toEqual([]);
      },
    );
  });

  it('keeps stepping when the iterations or the solver change, and names the solver running', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=jelly-drop`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        // Its only obstacle is a plane, which no drag moves: the description offers the body alone.
        const description = await page.locator('#description').textContent();
        expect(description).toContain('Drag the body; Drop lets the body fall again.');
        expect(description).not.toContain('obstacles');
        await page.locator('#iterations').fill(String(Math.log10(3))); // a logarithmic slider
        await page.locator('#solver').selectOption('fem');
        await expect.poll(async () => (await status(page)).solvers).toEqual(['fem']);
        const before = (await status(page)).simTime;
        await expect
          .poll(async () => (await status(page)).simTime, { timeout: 20000 })
          .toBeGreaterThan(before + 0.3);
        expect(new URL(page.url()).searchParams.get('iters')).toBe('3');
        expect(errors).toEqual([]);
      },
    );
  });

  it('says in the status line, at the current iterations, how many steps were solved again', async () => {
    // At 1 iteration the thrown ball's steps gain energy from step 4 on and are taken again with
    // more (the jelly cube's landing no longer does since friction's slip speed is 1e-2 m/s).
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=ball-wall&iters=1`,
      async ({ page, errors }) => {
        const retryWarnings = [];
        page.on('console', (message) => {
          if (message.type() === 'warning' && /retried/.test(message.text()))
            retryWarnings.push(message.text());
        });
        await waitUntilReady(page);
        const line = () => page.locator('#status').textContent();
        await expect.poll(line, { timeout: 30000 }).toMatch(/[2-9]\d* steps so far/);
        const said = await line();
        expect(said).toContain('is running in your browser'); // added to the line, not replacing it
        // Read out when it changes: what runs, not the counts that change a few times a second.
        const readOut = await page.locator('#status [role=status]').textContent();
        expect(readOut).toMatch(
          /^Contact: ball and wall is running in your browser on two threads\. Drag any body /,
        );
        expect(readOut).not.toMatch(/steps so far|times a second/);
        expect(await page.locator('[aria-live], [role=status], [role=alert]').count()).toBe(3);
        // A slider's output (a live region by its role) is shown, not read out: the slider says it.
        expect(await page.locator('output:not([aria-hidden="true"])').count()).toBe(0);
        expect(said).toMatch(
          /(1 step so far: at 1 iteration it|\d+ steps so far: at 1 iteration they) gained energy/,
        );
        // The status line counts them; the console says it once, not at every step.
        expect(retryWarnings, retryWarnings.join('\n')).toHaveLength(1);
        await page.locator('#iterations').fill(String(Math.log10(3))); // a logarithmic slider
        await expect.poll(line, { timeout: 10000 }).not.toContain('at 1 iteration');
        expect(await line()).toContain('is running in your browser');
        expect(errors).toEqual([]);
      },
    );
  });

  it('shows the contact points on request', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=jelly-drop`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        // Its only obstacle is a plane, which no drag moves: the description offers the body alone.
        const description = await page.locator('#description').textContent();
        expect(description).toContain('Drag the body; Drop lets the body fall again.');
        expect(description).not.toContain('obstacles');
        await expect
          .poll(async () => (await status(page)).contact?.activeContacts ?? 0, { timeout: 20000 })
          .toBeGreaterThan(0);
        await page.click('#play'); // pause: the two pictures differ only by the points
        const plain = await page.locator('#view').screenshot();
        await page.click('#contacts');
        expect(new URL(page.url()).searchParams.get('contacts')).toBe('1');
        const shown = await page.locator('#view').screenshot({ path: `${artifacts}/contact-points.png` });
        // About 44 points of a few pixels each: 0.048-0.06 % of the canvas drawn light
        // (renderQuality.js), none without them.
        expect(await pixelDifference(page, plain, shown)).toBeGreaterThan(0.0003);
        expect(errors).toEqual([]);
      },
    );
  });

  // assets/scenes/contact/poke.json: the block's top at y = 0.16, its centre under the ball (radius
  // 0.1, centre at y = 0.27 plus its path's offset), which comes down 5 cm by 1.2 s and holds until
  // 2.5 s. The global
  // modes alone cannot dent the top: drawn without the dent, the block's top pokes about 3 mm
  // into the ball at its lowest (measured in wasm); with it, within a hair of its surface.
  it("draws the poke scene's dent where the ball presses", async () => {
    // local=1 asks for what the scene runs anyway: no notice that it is off.
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=poke&local=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        expect((await status(page)).notices).toEqual([]);
        await expect
          .poll(async () => (await status(page)).contact?.obstacleOffsets?.[0]?.[1] ?? 0, { timeout: 60000 })
          .toBeLessThan(-0.03);
        // Paused 3 cm down (it holds at 5 cm), the ball's lowest point 2 cm under the top's start,
        // whichever step the pause lands on (at 1.2 cm down the check raced the pause: the page's
        // batches are smaller since the step clock caps them).
        await pause(page);
        const seen = await page.evaluate(() => ({
          contact: window.smfem.status.contact,
          top: window.smfem.drawnPoint([0, 0.08, 0]),
        }));
        const [x, y, z] = seen.contact.obstacleOffsets[0];
        const centre = [x, 0.27 + y, z];
        expect(seen.contact.localPatches[0]).toBeGreaterThan(0);
        expect(Math.hypot(...seen.top.map((v, k) => v - centre[k]))).toBeGreaterThan(0.1 - 1e-3);
        expect(seen.top[1]).toBeLessThan(0.16 - 0.005); // the block gave way under it
        await page.locator('#view').screenshot({ path: `${artifacts}/poke-dent.png` });
        expect(errors).toEqual([]);
      },
    );
  });

  // Side by side, the ball follows the same path over both copies of the block (each as far as its
  // block lets it). The left copy dents under it; the right (the global modes alone) can only
  // sink its top as a broad bowl: measured in the hold (t 1.5-2.5 s), the top's vertices 4.5 cm
  // from the axis lie 1.7-2.0 mm under the ball on the left and 5.4-7.0 mm on the right.
  it('runs the poke scene with and without local deformations side by side', async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=poke&compare=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        expect(await page.locator('#compare-local').isChecked()).toBe(true);
        expect(await page.locator('#local-deformations').isDisabled()).toBe(true);
        expect((await status(page)).labels).toEqual(['Local deformations', 'Global modes alone']);
        await expect.poll(async () => (await status(page)).simTime, { timeout: 60000 }).toBeGreaterThan(1.5);
        await pause(page);
        // Per copy: the ball's offset, and how far the top's middle and the vertices 4.5 cm from it
        // are drawn from the ball's surface (negative: inside it).
        const seen = await page.evaluate(() => {
          const { contacts, solvers, simTime } = window.smfem.status;
          const shift =
            window.smfem.drawnPoint([0, 0.08, 0], 1)[0] - window.smfem.drawnPoint([0, 0.08, 0], 0)[0];
          const gaps = contacts.map(({ obstacleOffsets: [[x, y, z]] }, copy) => {
            const centre = [x + copy * shift, 0.27 + y, z];
            const gap = (rest) =>
              Math.hypot(...window.smfem.drawnPoint(rest, copy).map((v, k) => v - centre[k])) - 0.1;
            return { middle: gap([0, 0.08, 0]), ring: (gap([0.045, 0.08, 0]) + gap([0, 0.08, 0.045])) / 2 };
          });
          return { contacts, solvers, simTime, shift, gaps };
        });
        const [withDents, globalOnly] = seen.contacts;
        expect(seen.simTime).toBeLessThan(2.5); // still in the hold
        expect(seen.solvers).toEqual(['mfem', 'mfem-global-only']);
        for (const copy of seen.contacts) expect(copy.obstacleOffsets[0][1]).toBeLessThan(-0.02);
        expect(withDents.localPatches[0]).toBeGreaterThan(0);
        expect(globalOnly.localPatches).toEqual([0]);
        expect(seen.shift).toBeGreaterThan(0.3); // apart: the block is 0.3 m wide
        expect(Math.abs(seen.gaps[0].middle)).toBeLessThan(1.5e-3);
        expect(seen.gaps[0].ring).toBeLessThan(seen.gaps[1].ring - 2e-3);
        await page.locator('#view').screenshot({ path: `${artifacts}/poke-side-by-side.png` });

        // The right copy's ball dragged to the left: both balls go (an obstacle moves in every copy).
        const [x, y, z] = globalOnly.obstacleOffsets[0];
        await dragWhilePlaying(page, await drawnAt(page, [x + seen.shift, 0.27 + y, z]), -80, 0);
        await expect
          .poll(async () => Math.max(...(await status(page)).contacts.map((c) => c.obstacleOffsets[0][0])), {
            timeout: 20000,
          })
          .toBeLessThan(-0.03);
        await page.mouse.up();

        await page.locator('#compare-local').uncheck();
        await waitUntilReady(page);
        expect(new URL(page.url()).searchParams.get('compare')).toBeNull();
        expect((await status(page)).labels).toEqual([]);
        expect(await page.locator('#local-deformations').isChecked()).toBe(true);
        expect(errors).toEqual([]);
      },
    );
  });

  it("turns the poke scene's local deformations off and on with its checkbox", async () => {
    await withPage(
      served.browser.context,
      `${served.server.url}?scene=poke&globalOnly=1`,
      async ({ page, errors }) => {
        await waitUntilReady(page);
        expect(await page.locator('#local-deformations').isChecked()).toBe(false);
        await expect
          .poll(async () => (await status(page)).contact?.obstacleOffsets?.[0]?.[1] ?? 0, { timeout: 60000 })
          .toBeLessThan(-0.012);
        expect((await status(page)).contact.localPatches).toEqual([0]); // pressed, and no dent
        await page.locator('#local-deformations').check();
        await waitUntilReady(page);
        expect(new URL(page.url()).searchParams.get('globalOnly')).toBeNull();
        await expect
          .poll(async () => (await status(page)).contact?.localPatches?.[0] ?? 0, { timeout: 60000 })
          .toBeGreaterThan(0);
        expect(errors).toEqual([]);
      },
    );
  });
});
