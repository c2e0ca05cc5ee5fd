// The page's blow-up test for runs whose steps stay finite (web/src/sim/RunawayWatch.js).
import { describe, expect, it } from 'vitest';
import { RunawayWatch } from '../../web/src/sim/RunawayWatch.js';

// A step report: kinetic energy, gravity's, the spring's, and how the solver fared.
const step = (kinetic, { gravity = 0, spring = 0, retries = 0, energyUnbalanced = false } = {}) => ({
  energy: { kinetic, elastic: 0, gravity, spring, total: kinetic + gravity + spring },
  retries,
  energyUnbalanced,
});

describe('RunawayWatch', () => {
  it('calls a run blown up at a struggling step that raises its energy a thousand times over', () => {
    const watch = new RunawayWatch();
    // The crab's run (its numbers): from -256 J to 1.46e6 J in a step retried three times.
    expect(watch.blownUp([step(555, { gravity: -811 }), step(1.5e6, { gravity: -4e4, retries: 3 })])).toBe(
      true,
    );
  });

  it('adds up the struggling steps in a row, and starts over after a clean one', () => {
    let watch = new RunawayWatch();
    // The page's crab: 75 J, then ten times over and more, step after struggling step.
    const climb = [75, 700, 7000, 70000].map((k, i) => step(k, { retries: i === 0 ? 0 : 3 }));
    expect(watch.blownUp(climb)).toBe(false); // 69,925 J gained over 75 J: 932 times
    expect(watch.blownUp([step(80000, { retries: 3 })])).toBe(true);
    watch = new RunawayWatch();
    expect(watch.blownUp(climb)).toBe(false);
    expect(watch.blownUp([step(70000), step(80000, { retries: 3 })])).toBe(false); // over 70,000 J now
  });

  it('lets a step the solver had no trouble with gain, and a struggling one gain less', () => {
    const watch = new RunawayWatch();
    // Falling: gravity's energy into kinetic; a clean step may even gain (a drag, say).
    expect(watch.blownUp([step(10), step(2e4)])).toBe(false);
    // Struggling, but 999 times over: not yet.
    expect(watch.blownUp([step(2e4 + 999 * 2e4, { retries: 3 })])).toBe(false);
    expect(watch.blownUp([step(0, { energyUnbalanced: true })])).toBe(false); // lost energy
  });

  it("leaves the hand's work and gravity's zero out, and measures from at least 1 J", () => {
    let watch = new RunawayWatch();
    // A pull that stores 5 kJ in the spring: the hand's, not a blow-up.
    expect(watch.blownUp([step(0), step(0.5, { spring: 5000, retries: 2 })])).toBe(false);
    // From rest, 999 J in a struggling step is below a thousand times the 1 J floor; 1001 J is not.
    expect(watch.blownUp([step(999, { retries: 2 })])).toBe(false);
    watch = new RunawayWatch();
    expect(watch.blownUp([step(0), step(1001, { retries: 2 })])).toBe(true);
    // A body high above the origin holds much energy of gravity's; its gain is measured against
    // its motion's.
    watch = new RunawayWatch();
    expect(watch.blownUp([step(0.04, { gravity: 429 }), step(2e4, { gravity: 500, retries: 3 })])).toBe(true);
  });
});
