import * as THREE from 'three';
import { CubatureMarkers } from './CubatureMarkers.js';
import { addSkinning, affineRows, modeWeightScale, packWeights, weightTextureSize } from './skinning.js';

// Distinct colours for neighbouring cluster ids: hues spaced by the golden angle.
function clusterColours(clusters) {
  const colours = new Float32Array(3 * clusters.length);
  const colour = new THREE.Color();
  clusters.forEach((cluster, v) => {
    colour.setHSL((cluster * 0.618034) % 1, 0.55, 0.6, THREE.SRGBColorSpace);
    colours.set([colour.r, colour.g, colour.b], 3 * v);
  });
  return colours;
}

// Each vertex in the colour of its material region (regions: per vertex; colours: region -> THREE.Color).
function perVertexColours(regions, colours) {
  const out = new Float32Array(3 * regions.length);
  const fallback = new THREE.Color(0x888888);
  regions.forEach((region, v) => {
    const colour = colours.get(region) ?? fallback;
    out.set([colour.r, colour.g, colour.b], 3 * v);
  });
  return out;
}

/**
 * The render surface of a baked asset, skinned on the GPU: nothing mesh-sized is touched on the
 * CPU after construction; each frame uploads only the 12m reduced coordinates.
 */
export class SkinnedSurface {
  /**
   * @param surface the asset's render surface (smfem.pageAsset(...).surface): positions, triangles,
   *   weights (nv x m), vertexCount, modeCount
   * @param options { color, roughness, metalness, markers (smfem.pageAsset(...).markers, or null),
   *   dent (a body with local deformations: setDent() draws them) }
   */
  constructor(
    surface,
    { color = 0xe0785a, roughness = 0.55, metalness = 0.05, markers = null, dent = false } = {},
  ) {
    const m = surface.modeCount;
    if (!(m > 0)) throw new Error('the asset has no skinning weights (render.weights)');
    this.modeCount = m;

    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(surface.positions, 3));
    geometry.setIndex(new THREE.BufferAttribute(surface.triangles, 1));
    if (surface.normals) geometry.setAttribute('normal', new THREE.BufferAttribute(surface.normals, 3));
    else geometry.computeVertexNormals();
    // Local deformations' dent, added to the skinned position, and its gradient, to the
    // skinning's for the normals (zero unless setDent() says): 12 floats per vertex, only on a
    // body that has them (the other bodies' shaders read no such attributes).
    this.dent = dent ? new THREE.InterleavedBuffer(new Float32Array(12 * surface.vertexCount), 12) : null;
    this.dented = false;
    if (this.dent) {
      this.dent.setUsage(THREE.DynamicDrawUsage);
      geometry.setAttribute('smfemDent', new THREE.InterleavedBufferAttribute(this.dent, 3, 0));
      for (let d = 0; d < 3; d++) {
        geometry.setAttribute(
          `smfemDentGradient${d}`,
          new THREE.InterleavedBufferAttribute(this.dent, 3, 3 + 3 * d),
        );
      }
    }
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
    this.surface = surface;
    this.uniforms = {
      smfemWeights: { value: weights },
      smfemRows: { value: this.rows },
      smfemColourMode: { value: -1 },
      smfemModeScale: { value: 0 },
    };

    const material = addSkinning(
      new THREE.MeshStandardMaterial({ color, roughness, metalness, precision: 'highp' }),
      this.uniforms,
      m,
      { colourByMode: true, dent },
    );
    this.mesh = new THREE.Mesh(geometry, material);
    this.mesh.customDepthMaterial = addSkinning(
      new THREE.MeshDepthMaterial({ depthPacking: THREE.RGBADepthPacking, precision: 'highp' }),
      this.uniforms,
      m,
      { dent },
    );
    this.mesh.castShadow = true;
    // The GPU moves the vertices; the rest-state bounds would cull a body that fell away.
    this.mesh.frustumCulled = false;
    this.color = new THREE.Color(color);

    if (markers) {
      const size = new THREE.Vector3();
      geometry.boundingBox.getSize(size);
      this.markers = new CubatureMarkers(markers, 0.012 * size.length());
      this.mesh.add(this.markers.mesh);
    }
  }

  /** Whether the asset has what the cluster view needs. */
  get hasClusters() {
    return Boolean(this.surface.clusters);
  }

  /** Whether the asset says which material region each vertex is in. */
  get hasRegions() {
    return Boolean(this.surface.regions);
  }

  /**
   * Paints each cubature cluster in its own colour and shows the representative tets (the view
   * where one sees what the cubature samples); else, given `regionColours` (region -> colour)
   * and an asset with regions, each material region in its colour; else the body's colour.
   */
  paint({ clusters = false, regionColours = null } = {}) {
    const showClusters = clusters && this.hasClusters;
    const colours = showClusters
      ? clusterColours(this.surface.clusters)
      : regionColours && this.hasRegions
        ? perVertexColours(this.surface.regions, regionColours)
        : null;
    const { geometry, material } = this.mesh;
    if (colours) geometry.setAttribute('color', new THREE.BufferAttribute(colours, 3));
    else geometry.deleteAttribute('color');
    if (material.vertexColors !== Boolean(colours)) {
      material.vertexColors = Boolean(colours);
      material.needsUpdate = true;
    }
    material.color.set(colours ? 0xffffff : this.color);
    if (this.markers) {
      this.markers.mesh.visible = showClusters;
      this.markers.update(this.u ?? new Float32Array(12 * this.modeCount));
    }
  }

  /** Rest-state bounding box (for framing the camera). */
  get restBounds() {
    return this.mesh.geometry.boundingBox;
  }

  /**
   * Paints the surface by the weight of mode `mode` (0-based; blue negative, red positive), or
   * in the material's colour for -1. One pass over the weights, only when the choice changes.
   */
  colourByMode(mode) {
    const valid = Number.isInteger(mode) && mode >= 0 && mode < this.modeCount;
    this.uniforms.smfemColourMode.value = valid ? mode : -1;
    this.uniforms.smfemModeScale.value = valid
      ? modeWeightScale(this.surface.weights, this.surface.vertexCount, this.modeCount, mode)
      : 0;
  }

  /** Sets the deformation: u, the 12m reduced coordinates (any array-like of numbers). */
  setReducedCoordinates(u) {
    affineRows(u, this.modeCount, this.rows);
    this.u = u;
    this.markers?.update(u);
  }

  /**
   * The local deformations' displacement of each render vertex and its gradient (12 floats each:
   * x y z, then the gradient's rows; the body's frame: ContactScene.bodyDent), or null for none.
   */
  setDent(dent) {
    if (!this.dent) throw new Error('setDent: this surface was made without a dent (options.dent)');
    if (!dent && !this.dented) return;
    if (dent) this.dent.array.set(dent);
    else this.dent.array.fill(0);
    this.dented = Boolean(dent);
    this.dent.needsUpdate = true;
  }

  dispose() {
    this.mesh.geometry.dispose();
    this.mesh.material.dispose();
    this.mesh.customDepthMaterial.dispose();
    this.uniforms.smfemWeights.value.dispose();
    this.markers?.dispose();
  }
}
