import * as THREE from 'three';
import { skinPoints } from './skinning.js';

/**
 * The cubature's representative tets as small spheres that move with the body (a teaching view:
 * the solver evaluates the material only there). Their positions are skinned on the CPU: C
 * points (a few hundred), not the mesh, from the asset's cubature.centroids and
 * cubature.centroid_weights (smfem.pageAsset in wasm/js/loader.js).
 */
export class CubatureMarkers {
  /**
   * @param markers smfem.pageAsset(...).markers: { centroids, weights, count, modeCount }
   * @param radius sphere radius, m
   */
  constructor({ centroids, weights, count, modeCount }, radius) {
    this.centroids = centroids;
    this.weights = weights;
    this.count = count;
    this.modeCount = modeCount;
    this.mesh = new THREE.InstancedMesh(
      new THREE.SphereGeometry(radius, 10, 6),
      new THREE.MeshStandardMaterial({ color: 0x1d2733, roughness: 0.4 }),
      count,
    );
    this.mesh.frustumCulled = false;
    this.mesh.visible = false;
    this.matrix = new THREE.Matrix4();
  }

  /** Moves the markers to the deformation u (12m reduced coordinates); skipped while hidden. */
  update(u) {
    if (!this.mesh.visible) return;
    skinPoints(this.centroids, this.weights, u, this.modeCount, this.count, (c, x, y, z) =>
      this.mesh.setMatrixAt(c, this.matrix.makeTranslation(x, y, z)),
    );
    this.mesh.instanceMatrix.needsUpdate = true;
  }

  dispose() {
    this.mesh.geometry.dispose();
    this.mesh.material.dispose();
    this.mesh.dispose();
  }
}
