import * as THREE from 'three';

// The obstacles of a scene with contact (loader.d.ts: ObstacleShape), drawn where the solver says
// they are. Planes are infinite: each is drawn as a square around the scene (`around`, a
// THREE.Box3), except the floor, which the view draws itself (View.frame). Planes that face up
// (ramps) are opaque; the others (walls, a plate coming down) translucent, so that the bodies
// behind them stay in sight. Spheres, boxes and capsules can be dragged; planes cannot (a press
// on a wall would take the place of orbiting).

const solid = () => new THREE.MeshStandardMaterial({ color: 0x8a96aa, roughness: 0.6, metalness: 0.1 });

/** The lowest plane facing straight up: the floor the view draws (null if there is none). */
export function floorOf(shapes) {
  const floors = shapes.filter((s) => s.type === 'plane' && s.normal[1] > 0.999 * Math.hypot(...s.normal));
  return floors.length ? Math.min(...floors.map((s) => s.point[1])) : null;
}

/** The box around a shape where it starts (empty for a plane). */
export function shapeBounds(shape) {
  const box = new THREE.Box3();
  const grown = (points, by) => {
    for (const p of points) box.expandByPoint(new THREE.Vector3(...p));
    return box.expandByScalar(by);
  };
  switch (shape.type) {
    case 'sphere':
      return grown([shape.center], shape.radius);
    case 'box':
      return box.setFromCenterAndSize(
        new THREE.Vector3(...shape.center),
        new THREE.Vector3(...shape.halfExtents).multiplyScalar(2),
      );
    case 'capsule':
      return grown([shape.from, shape.to], shape.radius);
    default:
      return box;
  }
}

function planeMesh({ point, normal }, around) {
  const extent = around.getSize(new THREE.Vector3());
  const n = new THREE.Vector3(...normal).normalize();
  const facingUp = n.y > 0.2;
  if (facingUp) {
    const size = 2 * extent.length();
    const mesh = placedOnPlane(
      new THREE.Mesh(new THREE.PlaneGeometry(size, size), solid()),
      point,
      n,
      around,
    );
    mesh.receiveShadow = true;
    return mesh;
  }
  // A pane a little larger than the scene, its edges drawn: a plate coming down seen from above
  // (a sheet as large as the view, at this opacity) looked like no plate at all.
  const size = 1.5 * Math.max(extent.x, extent.y, extent.z);
  const pane = new THREE.PlaneGeometry(size, size);
  const mesh = new THREE.Mesh(
    pane,
    new THREE.MeshStandardMaterial({
      color: 0x9fb4d0,
      transparent: true,
      opacity: 0.22,
      depthWrite: false,
      side: THREE.DoubleSide,
    }),
  );
  mesh.add(
    new THREE.LineSegments(
      new THREE.EdgesGeometry(pane),
      new THREE.LineBasicMaterial({ color: 0x5d7396, transparent: true, opacity: 0.8 }),
    ),
  );
  return placedOnPlane(mesh, point, n, around);
}

/** The mesh turned to face along n, centred where the scene's centre projects onto the plane. */
function placedOnPlane(mesh, point, n, around) {
  mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), n);
  const centre = around.getCenter(new THREE.Vector3());
  const p = new THREE.Vector3(...point);
  mesh.position.copy(centre).addScaledVector(n, p.clone().sub(centre).dot(n));
  return mesh;
}

function capsuleMesh({ from, to, radius }) {
  const a = new THREE.Vector3(...from);
  const b = new THREE.Vector3(...to);
  const axis = b.clone().sub(a);
  const mesh = new THREE.Mesh(new THREE.CapsuleGeometry(radius, axis.length(), 8, 32), solid());
  mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), axis.clone().normalize());
  mesh.position.copy(a).add(b).multiplyScalar(0.5);
  return mesh;
}

function shapeMesh(shape, around) {
  switch (shape.type) {
    case 'plane':
      return planeMesh(shape, around);
    case 'sphere': {
      const mesh = new THREE.Mesh(new THREE.SphereGeometry(shape.radius, 48, 24), solid());
      mesh.position.set(...shape.center);
      return mesh;
    }
    case 'box': {
      const [x, y, z] = shape.halfExtents.map((h) => 2 * h);
      const mesh = new THREE.Mesh(new THREE.BoxGeometry(x, y, z), solid());
      mesh.position.set(...shape.center);
      return mesh;
    }
    case 'capsule':
      return capsuleMesh(shape);
    default:
      throw new Error(`the scene has an obstacle of unknown type '${shape.type}'`);
  }
}

// An obstacle drawn translated by `offset` (x y z) from where it starts.
function moveTo(obstacle, offset) {
  obstacle.offset.fromArray(offset);
  obstacle.mesh.position.copy(obstacle.start).add(obstacle.offset);
}

export class ObstacleMeshes {
  /** shapes: the scene's obstacles where they start; around: the box the planes are drawn over. */
  constructor(shapes, around) {
    const floor = floorOf(shapes);
    this.group = new THREE.Group();
    this.all = [];
    shapes.forEach((shape, index) => {
      const isFloor =
        shape.type === 'plane' && floor !== null && shape.point[1] === floor && shape.normal[1] > 0;
      if (isFloor) return;
      const mesh = shapeMesh(shape, around);
      if (shape.type !== 'plane') mesh.castShadow = mesh.receiveShadow = true;
      this.group.add(mesh);
      this.all.push({
        index,
        mesh,
        start: mesh.position.clone(),
        offset: new THREE.Vector3(),
        movable: shape.type !== 'plane',
      });
    });
  }

  /** The obstacles a drag may move (DragController's stage.obstacles). */
  get movable() {
    return this.all.filter((o) => o.movable);
  }

  /** Draws obstacle `index` translated by `offset` (x y z) until the next update. */
  place(index, offset) {
    const obstacle = this.all.find((o) => o.index === index);
    if (obstacle) moveTo(obstacle, offset);
  }

  /** offsets[i]: obstacle i's translation now (a step report's obstacleOffsets). */
  update(offsets) {
    for (const obstacle of this.all) moveTo(obstacle, offsets[obstacle.index]);
  }

  dispose() {
    for (const { mesh } of this.all) {
      mesh.geometry.dispose();
      mesh.material.dispose();
    }
  }
}
