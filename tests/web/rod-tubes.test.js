// The rods' tubes (web/src/render/RodTubes.js): each segment's cylinder runs from one vertex to
// the other, as thick as its rod (or the least drawn radius), and each joint's sphere sits on its
// vertex, as thick as the thickest segment there; they follow the vertices when they move.
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { RodTubes } from '../../web/src/render/RodTubes.js';

// Where instance i of `mesh` puts a point of its unit geometry (the instances are float32).
function placed(mesh, i, point) {
  const matrix = new THREE.Matrix4();
  mesh.getMatrixAt(i, matrix);
  return new THREE.Vector3(...point).applyMatrix4(matrix).toArray();
}

function expectClose(actual, expected) {
  actual.forEach((x, k) => expect(x).toBeCloseTo(expected[k], 6));
}

describe('rod tubes', () => {
  // A bent polyline of three vertices, its segments 1 cm and 1 mm in radius; drawn at least 2 mm.
  const edges = new Uint32Array([0, 1, 1, 2]);
  const tubes = new RodTubes(edges, new Float32Array([0.01, 0.001]), 0.002, new THREE.MeshBasicMaterial());

  it('runs each tube from vertex to vertex, as thick as its rod or the least drawn', () => {
    const positions = new Float32Array([0, 0, 0, 0, 2, 0, 1, 2, 0]);
    tubes.update(positions);
    // The unit cylinder's axis is y from -0.5 to 0.5, its radius 1.
    expectClose(placed(tubes.tubes, 0, [0, -0.5, 0]), [0, 0, 0]);
    expectClose(placed(tubes.tubes, 0, [0, 0.5, 0]), [0, 2, 0]);
    expectClose(placed(tubes.tubes, 0, [1, 0, 0]), [0.01, 1, 0]);
    const ends = [placed(tubes.tubes, 1, [0, -0.5, 0]), placed(tubes.tubes, 1, [0, 0.5, 0])];
    const xs = ends.map((p) => p[0]).sort();
    expectClose(xs, [0, 1]);
    ends.forEach((p) => expectClose(p.slice(1), [2, 0]));
    // Across the second segment (along x), its radius is the least drawn, 2 mm.
    const side = placed(tubes.tubes, 1, [0, 0, 1]);
    expect(Math.hypot(side[1] - 2, side[2])).toBeCloseTo(0.002, 6);
  });

  it('puts a joint on each vertex, as thick as its thickest segment, and follows the vertices', () => {
    const positions = new Float32Array([0, 1, 0, 0, 3, 0, 1, 3, 0]);
    tubes.update(positions);
    expect(tubes.spheres.count).toBe(3);
    const joints = Array.from({ length: 3 }, (_, j) => ({
      centre: placed(tubes.spheres, j, [0, 0, 0]),
      radius: Math.hypot(
        ...placed(tubes.spheres, j, [1, 0, 0]).map((x, k) => x - placed(tubes.spheres, j, [0, 0, 0])[k]),
      ),
    }));
    const at = (point) => joints.find(({ centre }) => centre.every((x, k) => Math.abs(x - point[k]) < 1e-9));
    expect(at([0, 1, 0]).radius).toBeCloseTo(0.01, 6);
    expect(at([0, 3, 0]).radius).toBeCloseTo(0.01, 6);
    expect(at([1, 3, 0]).radius).toBeCloseTo(0.002, 6);
  });
});
