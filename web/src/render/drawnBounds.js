import * as THREE from 'three';
import { skinVertex } from './skinning.js';

// The directions whose farthest rest vertices stand for a skinned body's extent: the axes, the
// face diagonals and the corner diagonals, both ways. Skinned on the CPU, 26 vertices a body at
// most, they bound where it is drawn closely enough for the camera (a turned or bent body can
// put another vertex a little beyond them, which the view's margin, framing.js, takes up).
const directions = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 1, 0],
  [1, -1, 0],
  [1, 0, 1],
  [1, 0, -1],
  [0, 1, 1],
  [0, 1, -1],
  [1, 1, 1],
  [1, 1, -1],
  [1, -1, 1],
  [1, -1, -1],
].flatMap((d) => [d, d.map((x) => -x)]);

const supportCache = new WeakMap();

// The rest vertices farthest along each direction (indices, without repeats), once per surface.
function supportVertices(positions) {
  let indices = supportCache.get(positions);
  if (indices) return indices;
  const best = directions.map(() => ({ index: 0, reach: -Infinity }));
  for (let v = 0; v < positions.length / 3; v++) {
    const [x, y, z] = positions.subarray(3 * v, 3 * v + 3);
    directions.forEach(([a, b, c], k) => {
      const reach = a * x + b * y + c * z;
      if (reach > best[k].reach) best[k] = { index: v, reach };
    });
  }
  indices = [...new Set(best.map(({ index }) => index))];
  supportCache.set(positions, indices);
  return indices;
}

/**
 * Where a stage's bodies are drawn now (THREE.Box3, world units), from each body of
 * `stage.bodies` ({ surface, offset, u } skinned on the CPU as the shader skins it, or
 * { drawnPositions, offset } for shells and rods); empty before the first state is shown.
 */
export function drawnBounds(bodies) {
  const box = new THREE.Box3();
  const point = new THREE.Vector3();
  const moved = new Float64Array(3);
  for (const { surface, offset, u, drawnPositions } of bodies) {
    if (drawnPositions) {
      for (let v = 0; v < drawnPositions.length; v += 3) {
        box.expandByPoint(point.fromArray(drawnPositions, v).add(offset));
      }
      continue;
    }
    if (!u) continue;
    const { positions, weights, modeCount } = surface;
    for (const v of supportVertices(positions)) {
      skinVertex(
        positions.subarray(3 * v, 3 * v + 3),
        weights.subarray(modeCount * v, modeCount * (v + 1)),
        u,
        modeCount,
        moved,
      );
      box.expandByPoint(point.fromArray(moved).add(offset));
    }
  }
  return box;
}
