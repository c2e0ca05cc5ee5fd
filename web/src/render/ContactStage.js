import * as THREE from 'three';
import { ObstacleMeshes, floorOf, shapeBounds } from './ObstacleMeshes.js';
import { CanvasLabels } from './SideBySideStage.js';
import { SkinnedSurface } from './SkinnedSurface.js';

// Distinct colours for neighbouring bodies: hues spaced by the golden angle.
function bodyColour(index) {
  return new THREE.Color().setHSL((0.04 + index * 0.618034) % 1, 0.55, 0.6, THREE.SRGBColorSpace);
}

// A render surface's rest box (its positions: x y z each).
const surfaceBounds = ({ positions }) => new THREE.Box3().setFromArray(positions);

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
 * within the activation distance of something) drawn over everything. Side by side (copies > 1:
 * the same scene run several ways, a scene's local deformations on and off), each copy of the
 * scene stands a scene's width and a quarter to the right of the one before, labelled over it.
 */
export class ContactStage {
  /** info: the scene's (loader.d.ts: ContactScene.info); surfaces: each body's render surface. */
  constructor(info, surfaces, { copies = 1 } = {}) {
    this.info = info;
    this.object = new THREE.Group();
    const sceneBounds = new THREE.Box3();
    for (const [i, body] of info.bodies.entries()) {
      sceneBounds.union(surfaceBounds(surfaces[i]).translate(new THREE.Vector3(...body.offset)));
    }
    for (const shape of info.obstacles) sceneBounds.union(shapeBounds(shape));
    this.sceneBounds = sceneBounds;
    this.floor = floorOf(info.obstacles);
    if (this.floor !== null) sceneBounds.expandByPoint(sceneBounds.min.clone().setY(this.floor));
    const spacing = 1.25 * sceneBounds.getSize(new THREE.Vector3()).x;
    this.copies = Array.from({ length: copies }, (_, c) => this.addCopy(surfaces, c * spacing));
    this.bodies = this.copies.flatMap((copy) => copy.bodies);
    this.bounds = new THREE.Box3();
    for (const copy of this.copies) this.bounds.union(sceneBounds.clone().translate(copy.group.position));
    this.labels = new CanvasLabels(this.object);
  }

  // One copy of the scene, `shift` along x: its bodies (offset: where each is drawn), obstacles
  // and contact points, in a group of its own.
  addCopy(surfaces, shift) {
    const group = new THREE.Group();
    group.position.x = shift;
    this.object.add(group);
    const bodies = this.info.bodies.map((body, i) => {
      const skinned = new SkinnedSurface(surfaces[i], { color: bodyColour(i), dent: body.localDeformations });
      skinned.mesh.position.fromArray(body.offset);
      group.add(skinned.mesh);
      const offset = skinned.mesh.position.clone().add(group.position);
      return { surface: surfaces[i], offset, u: null, skinned, layout: body };
    });
    const obstacleMeshes = new ObstacleMeshes(this.info.obstacles, this.sceneBounds);
    group.add(obstacleMeshes.group);
    const size = this.sceneBounds.getSize(new THREE.Vector3()).length();
    const points = new THREE.Points(
      new THREE.BufferGeometry(),
      new THREE.PointsMaterial({ color: 0xffd23f, size: Math.max(0.012 * size, 1e-4), depthTest: false }),
    );
    points.renderOrder = 1;
    points.frustumCulled = false;
    points.visible = false;
    group.add(points);
    return { group, bodies, obstacleMeshes, points };
  }

  /** The obstacles a drag may move (a move applies to every copy's). */
  get obstacles() {
    return this.copies.flatMap((copy) => copy.obstacleMeshes.movable);
  }

  /** Body b of the page's list (DragController's stage.bodies): { copy, body } of the scene. */
  sceneBody(b) {
    const count = this.info.bodies.length;
    return { copy: Math.floor(b / count), body: b % count };
  }

  /** The offset (THREE.Vector3) from where copy c draws a point to where the scene has it. */
  toScene(c) {
    return this.copies[c].group.position.clone().negate();
  }

  get hasClusters() {
    return false;
  }

  /** Labels each copy of the scene over its bodies (texts[c] for copy c), replacing any before. */
  setLabels(texts) {
    const size = this.sceneBounds.getSize(new THREE.Vector3());
    const height = 0.08 * Math.max(size.x, size.y, size.z);
    const centre = this.sceneBounds
      .getCenter(new THREE.Vector3())
      .setY(this.sceneBounds.max.y + 1.2 * height);
    this.labels.set(
      texts,
      this.copies.map(({ group }) => centre.clone().add(group.position)),
      height,
    );
  }

  /**
   * Per copy c: answer.u[c], its scene's reduced coordinates (U); contactPoints[c]: x y z each;
   * obstacleOffsets[c]: each obstacle's translation (absent: where they start); dents[c]: per
   * body, its local deformations' displacement of each render vertex and its gradient
   * (ContactScene.bodyDent), or null (absent: none).
   */
  show({ u, contactPoints, obstacleOffsets, dents }) {
    this.copies.forEach((copy, c) => {
      copy.bodies.forEach((body, i) => {
        body.u = bodyCoordinates(u[c], body.layout, this.info.modes);
        body.skinned.setReducedCoordinates(body.u);
        if (body.layout.localDeformations) body.skinned.setDent(dents?.[c]?.[i] ?? null);
      });
      copy.obstacleMeshes.update(obstacleOffsets?.[c] ?? this.info.obstacles.map(() => [0, 0, 0]));
      const points = contactPoints?.[c];
      if (points) {
        copy.points.geometry.setAttribute('position', new THREE.BufferAttribute(points, 3));
        copy.points.geometry.setDrawRange(0, points.length / 3);
      }
    });
  }

  /** Draws obstacle `index` of every copy translated by `offset` until the next step shows them. */
  placeObstacle(index, offset) {
    for (const copy of this.copies) copy.obstacleMeshes.place(index, offset);
  }

  showContacts(on) {
    for (const copy of this.copies) copy.points.visible = on;
  }

  /** Whether "Colour: material" can paint the regions: a scene of one body whose asset has them. */
  get paintsRegions() {
    return this.info.bodies.length === 1 && this.bodies[0].skinned.hasRegions;
  }

  // A body keeps its own colour, but a scene's only body shows its material regions as on its
  // own page where it has several (openContact.js: oneBodyMaterials); the other teaching views
  // are one body's.
  applyColouring({ regionColours }) {
    for (const { skinned } of this.bodies)
      skinned.paint({ regionColours: this.paintsRegions ? regionColours : null });
  }

  dispose() {
    this.labels.dispose();
    for (const copy of this.copies) {
      for (const { skinned } of copy.bodies) skinned.dispose();
      copy.obstacleMeshes.dispose();
      copy.points.geometry.dispose();
      copy.points.material.dispose();
    }
  }
}
