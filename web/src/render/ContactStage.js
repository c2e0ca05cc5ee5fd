import * as THREE from 'three';
import { ObstacleMeshes, floorOf, shapeBounds } from './ObstacleMeshes.js';
import { SkinnedSurface } from './SkinnedSurface.js';

// Distinct colours for neighbouring bodies: hues spaced by the golden angle.
function bodyColour(index) {
  return new THREE.Color().setHSL((0.04 + index * 0.618034) % 1, 0.55, 0.6, THREE.SRGBColorSpace);
}

/** Body i's 12 m_i reduced coordinates out of the scene's U (4M x 3, column-major, f64). */
export function bodyCoordinates(U, { firstMode, modes }, totalModes) {
  const u = new Float32Array(12 * modes);
  for (let d = 0; d < 3; d++) {
    u.set(
      U.subarray(4 * totalModes * d + 4 * firstMode, 4 * totalModes * d + 4 * (firstMode + modes)),
      4 * modes * d,
    );
  }
  return u;
}

/**
 * What the page draws for a scene with contact: each body skinned by its rows of U at its place,
 * the obstacles where the solver has them, and, on request, the contact points (the samples
 * within the activation distance of something) drawn over everything.
 */
export class ContactStage {
  /** info: the scene's (loader.d.ts: ContactScene.info); surfaces: each body's render surface. */
  constructor(info, surfaces) {
    this.info = info;
    this.object = new THREE.Group();
    this.bounds = new THREE.Box3();
    this.bodies = info.bodies.map((body, i) => {
      const skinned = new SkinnedSurface(surfaces[i], { color: bodyColour(i), dent: body.localDeformations });
      const offset = new THREE.Vector3(...body.offset);
      skinned.mesh.position.copy(offset);
      this.object.add(skinned.mesh);
      this.bounds.union(skinned.restBounds.clone().translate(offset));
      return { surface: surfaces[i], offset, u: null, skinned, layout: body };
    });
    for (const shape of info.obstacles) this.bounds.union(shapeBounds(shape));
    this.floor = floorOf(info.obstacles);
    if (this.floor !== null) this.bounds.expandByPoint(this.bounds.min.clone().setY(this.floor));
    this.obstacleMeshes = new ObstacleMeshes(info.obstacles, this.bounds);
    this.object.add(this.obstacleMeshes.group);

    const size = this.bounds.getSize(new THREE.Vector3()).length();
    this.points = new THREE.Points(
      new THREE.BufferGeometry(),
      new THREE.PointsMaterial({ color: 0xffd23f, size: Math.max(0.012 * size, 1e-4), depthTest: false }),
    );
    this.points.renderOrder = 1;
    this.points.frustumCulled = false;
    this.points.visible = false;
    this.object.add(this.points);
  }

  /** The obstacles a drag may move. */
  get obstacles() {
    return this.obstacleMeshes.movable;
  }

  get hasClusters() {
    return false;
  }

  /**
   * answer.u: [U], the scene's reduced coordinates; answer.contactPoints: x y z each;
   * obstacleOffsets: each obstacle's translation (absent: where they start); dents: per body, its
   * local deformations' displacement of each render vertex and its gradient
   * (ContactScene.bodyDent), or null (absent: none).
   */
  show({ u: [U], contactPoints, obstacleOffsets, dents }) {
    this.bodies.forEach((body, i) => {
      body.u = bodyCoordinates(U, body.layout, this.info.modes);
      body.skinned.setReducedCoordinates(body.u);
      if (body.layout.localDeformations) body.skinned.setDent(dents?.[i] ?? null);
    });
    this.obstacleMeshes.update(obstacleOffsets ?? this.info.obstacles.map(() => [0, 0, 0]));
    if (contactPoints) {
      this.points.geometry.setAttribute('position', new THREE.BufferAttribute(contactPoints, 3));
      this.points.geometry.setDrawRange(0, contactPoints.length / 3);
    }
  }

  showContacts(on) {
    this.points.visible = on;
  }

  // Bodies keep their own colours; the teaching views of one body do not apply here.
  applyColouring() {}

  dispose() {
    for (const { skinned } of this.bodies) skinned.dispose();
    this.obstacleMeshes.dispose();
    this.points.geometry.dispose();
    this.points.material.dispose();
  }
}
