// The box the camera frames as bodies travel (web/src/render/framing.js: boxKeepingInView): it
// widens to take them in, up to 4 times the start's size, then follows them at the start's size.
import { Box3, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { boxKeepingInView } from '../../web/src/render/framing.js';

const box = (min, max) => new Box3(new Vector3(...min), new Vector3(...max));

describe('keeping the bodies in view', () => {
  const home = box([0, 0, 0], [1, 1, 1]);

  it('leaves the frame alone while the bodies are inside it', () => {
    expect(boxKeepingInView(home, home, box([0.2, 0.2, 0.2], [0.8, 0.8, 0.8]))).toBeNull();
    expect(boxKeepingInView(home, home, new Box3())).toBeNull();
  });

  it('widens to take a body in, up to 4 times the start', () => {
    const kept = boxKeepingInView(home, home, box([1.5, 0, 0], [2, 1, 1]));
    expect(kept.min.toArray()).toEqual([0, 0, 0]);
    expect(kept.max.toArray()).toEqual([2, 1, 1]);
  });

  it('follows a body beyond that at the size of the start', () => {
    // Fallen 10 m: the widened box would be 11 tall, more than 4 times the start's diagonal.
    const kept = boxKeepingInView(home, home, box([0, -10, 0], [1, -9, 1]));
    expect(kept.min.toArray()).toEqual([0, -10, 0]);
    expect(kept.max.toArray()).toEqual([1, -9, 1]);
    // A body larger than the start keeps its own size.
    const large = boxKeepingInView(home, home, box([0, -10, 0], [3, -9, 1]));
    expect(large.getSize(new Vector3()).toArray()).toEqual([3, 1, 1]);
  });
});
