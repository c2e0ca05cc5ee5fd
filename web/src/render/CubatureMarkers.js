import * as THREE from 'three';
import { skinVertex } from './skinning.js';

/**
 * The cubature's representative tets as small spheres that move with the body (a teaching view:
 * the solver evaluates the material only there). Their positions are skinned on the CPU: C
 * points (a few hundred), not the mesh, from the asset's cubature.centroids and
 * cubature.centroid_weights.
 */
export class CubatureMarkers {
  /**
   * @param markers { centroids: Float32Array (C x 3), weights: Float32Array (C x m), count, modeCount }
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
    this.position = new Float64Array(3);
    this.matrix = new THREE.Matrix4();
  }

  /** Moves the markers to the deformation u (12m reduced coordinates); skipped while hidden. */
  update(u) {
    if (!this.mesh.visible) return;
    const m = this.modeCount;
    for (let c = 0; c < this.count; c++) {
      const p = skinVertex(
        this.centroids.subarray(3 * c, 3 * c + 3),
        this.weights.subarray(m * c, m * (c + 1)),
        u,
        m,
        this.position,
      );
      this.mesh.setMatrixAt(c, this.matrix.makeTranslation(p[0], p[1], p[2]));
    }
    this.mesh.instanceMatrix.needsUpdate = true;
  }

  dispose() {
    this.mesh.geometry.dispose();
    this.mesh.material.dispose();
    this.mesh.dispose();
  }
}

/** The marker data of an asset (readAsset), or null when it has none. */
export function readCubatureMarkers(asset) {
  if (!asset.has('cubature.centroids') || !asset.has('cubature.centroid_weights')) return null;
  const count = asset.expect('cubature.centroids', 'f32', [-1, 3]).shape[0];
  const modeCount = asset.expect('cubature.centroid_weights', 'f32', [count, -1]).shape[1];
  return {
    centroids: asset.get('cubature.centroids'),
    weights: asset.get('cubature.centroid_weights'),
    count,
    modeCount,
  };
}
