import * as THREE from 'three';
import { addSkinning, affineRows, packWeights, weightTextureSize } from './skinning.js';

/**
 * The render surface of a baked asset, skinned on the GPU: nothing mesh-sized is touched on the
 * CPU after construction; each frame uploads only the 12m reduced coordinates.
 */
export class SkinnedSurface {
  /**
   * @param surface the asset's render surface (readRenderSurface): positions, triangles,
   *   weights (nv x m), vertexCount, modeCount
   * @param options { color, roughness, metalness }
   */
  constructor(surface, { color = 0xe0785a, roughness = 0.55, metalness = 0.05 } = {}) {
    const m = surface.modeCount;
    if (!(m > 0)) throw new Error('the asset has no skinning weights (render.weights)');
    this.modeCount = m;

    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(surface.positions, 3));
    geometry.setIndex(new THREE.BufferAttribute(surface.triangles, 1));
    if (surface.normals) geometry.setAttribute('normal', new THREE.BufferAttribute(surface.normals, 3));
    else geometry.computeVertexNormals();
    geometry.computeBoundingBox();
    geometry.computeBoundingSphere();

    const { width, height } = weightTextureSize(surface.vertexCount, m);
    const weights = new THREE.DataTexture(
      packWeights(surface.weights, surface.vertexCount, m),
      width,
      height,
      THREE.RGBAFormat,
      THREE.FloatType,
    );
    weights.needsUpdate = true;
    this.rows = new Float32Array(12 * m);
    this.uniforms = {
      smfemWeights: { value: weights },
      smfemRows: { value: this.rows },
    };

    const material = addSkinning(
      new THREE.MeshStandardMaterial({ color, roughness, metalness, precision: 'highp' }),
      this.uniforms,
      m,
    );
    this.mesh = new THREE.Mesh(geometry, material);
    this.mesh.customDepthMaterial = addSkinning(
      new THREE.MeshDepthMaterial({ depthPacking: THREE.RGBADepthPacking, precision: 'highp' }),
      this.uniforms,
      m,
    );
    this.mesh.castShadow = true;
    // The GPU moves the vertices; the rest-state bounds would cull a body that fell away.
    this.mesh.frustumCulled = false;
  }

  /** Rest-state bounding box (for framing the camera). */
  get restBounds() {
    return this.mesh.geometry.boundingBox;
  }

  /** Sets the deformation: u, the 12m reduced coordinates (any array-like of numbers). */
  setReducedCoordinates(u) {
    affineRows(u, this.modeCount, this.rows);
  }

  dispose() {
    this.mesh.geometry.dispose();
    this.mesh.material.dispose();
    this.mesh.customDepthMaterial.dispose();
    this.uniforms.smfemWeights.value.dispose();
  }
}
