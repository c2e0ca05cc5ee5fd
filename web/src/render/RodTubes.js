import * as THREE from 'three';

// A rod's segments drawn as tubes of their own radius: one instanced open cylinder per segment
// and one instanced sphere per rod vertex, which rounds the joints, placed each frame from the
// vertices' positions (a 1,500-segment net costs two matrix uploads a frame). Hexagonal tubes
// and coarse joints (36,000 triangles for the bunny's 1,500 rods): headless Chromium renders on
// the CPU, and there the bunny's page drew 3.3 frames a second with them against 7.3 with lines
// (at 10 sides, 90,000 triangles, fewer still). A tube is drawn at least `minRadius` thick, so
// that a wire seen from afar is not lost below a pixel.

const up = new THREE.Vector3(0, 1, 0);

export class RodTubes {
  /**
   * edges: the segments (2 vertex ids each); radii: each segment's radius, m; material: shared
   * by tubes and joints (dispose frees it).
   */
  constructor(edges, radii, minRadius, material) {
    this.edges = edges;
    this.radii = Float32Array.from(radii, (r) => Math.max(r, minRadius));
    // Each joint as thick as the thickest segment it ends.
    const joints = new Map();
    for (let e = 0; e < this.radii.length; e++) {
      for (const v of [edges[2 * e], edges[2 * e + 1]])
        joints.set(v, Math.max(joints.get(v) ?? 0, this.radii[e]));
    }
    this.joints = [...joints];
    this.group = new THREE.Group();
    this.tubes = new THREE.InstancedMesh(
      new THREE.CylinderGeometry(1, 1, 1, 6, 1, true),
      material,
      this.radii.length,
    );
    this.spheres = new THREE.InstancedMesh(new THREE.SphereGeometry(1, 6, 4), material, this.joints.length);
    for (const mesh of [this.tubes, this.spheres]) {
      mesh.castShadow = mesh.receiveShadow = true;
      mesh.frustumCulled = false; // it moves far from where it was made
      this.group.add(mesh);
    }
    // Each instance's colour (white: the material's own), made now so that painting them later
    // does not recompile the shader.
    this.setColours(null, null);
  }

  /**
   * Paints each segment (segmentColours: r g b per segment) and each joint by its vertex
   * (vertexColours: r g b per vertex id), times the material's colour; null: white.
   */
  setColours(segmentColours, vertexColours) {
    const colour = new THREE.Color();
    for (let e = 0; e < this.radii.length; e++) {
      this.tubes.setColorAt(
        e,
        segmentColours ? colour.fromArray(segmentColours, 3 * e) : colour.set(0xffffff),
      );
    }
    this.joints.forEach(([v], j) => {
      this.spheres.setColorAt(
        j,
        vertexColours ? colour.fromArray(vertexColours, 3 * v) : colour.set(0xffffff),
      );
    });
    this.tubes.instanceColor.needsUpdate = true;
    this.spheres.instanceColor.needsUpdate = true;
  }

  /** positions: x y z per vertex, where they are drawn now. */
  update(positions) {
    const a = new THREE.Vector3();
    const b = new THREE.Vector3();
    const axis = new THREE.Vector3();
    const turn = new THREE.Quaternion();
    const size = new THREE.Vector3();
    const matrix = new THREE.Matrix4();
    for (let e = 0; e < this.radii.length; e++) {
      a.fromArray(positions, 3 * this.edges[2 * e]);
      b.fromArray(positions, 3 * this.edges[2 * e + 1]);
      axis.subVectors(b, a);
      const length = axis.length();
      turn.setFromUnitVectors(up, length > 0 ? axis.divideScalar(length) : up);
      size.set(this.radii[e], length, this.radii[e]);
      matrix.compose(a.add(b).multiplyScalar(0.5), turn, size);
      this.tubes.setMatrixAt(e, matrix);
    }
    turn.identity();
    this.joints.forEach(([v, radius], j) => {
      matrix.compose(a.fromArray(positions, 3 * v), turn, size.setScalar(radius));
      this.spheres.setMatrixAt(j, matrix);
    });
    this.tubes.instanceMatrix.needsUpdate = true;
    this.spheres.instanceMatrix.needsUpdate = true;
  }

  /** Frees the instance buffers, the geometries and the material. */
  dispose() {
    for (const mesh of [this.tubes, this.spheres]) {
      mesh.geometry.dispose();
      mesh.dispose();
    }
    this.tubes.material.dispose();
  }
}
