import * as THREE from 'three';
import { SkinnedSurface } from './SkinnedSurface.js';

/**
 * What the page draws for a body on its own: one skinned copy of its render surface per
 * simulator (side by side, they stand apart along x by 1.3 times the body's width).
 */
export class SideBySideStage {
  /** surface, markers: the asset's render surface and cubature markers; count: simulators. */
  constructor(surface, markers, count) {
    this.surfaces = Array.from({ length: count }, () => new SkinnedSurface(surface, { markers }));
    const rest = this.surfaces[0].restBounds;
    const spacing = 1.3 * (rest.max.x - rest.min.x);
    this.object = new THREE.Group();
    this.bounds = new THREE.Box3();
    this.bodies = this.surfaces.map((skinned, i) => {
      const offset = new THREE.Vector3((i - (count - 1) / 2) * spacing, 0, 0);
      skinned.mesh.position.copy(offset);
      this.object.add(skinned.mesh);
      this.bounds.union(rest.clone().translate(offset));
      return { surface, offset, u: null };
    });
    this.obstacles = [];
    this.floor = null; // the view's floor goes under the body
  }

  get hasClusters() {
    return this.surfaces[0].hasClusters;
  }

  /** answer.u[i]: simulator i's reduced coordinates. */
  show({ u }) {
    u.forEach((coordinates, i) => {
      this.surfaces[i].setReducedCoordinates(coordinates);
      this.bodies[i].u = coordinates;
    });
  }

  // The teaching views: clusters over a mode's weight over the material's colour.
  applyColouring({ clusters, mode }) {
    for (const skinned of this.surfaces) {
      skinned.showClusters(clusters);
      skinned.colourByMode(clusters ? -1 : mode - 1);
    }
  }

  dispose() {
    for (const skinned of this.surfaces) skinned.dispose();
  }
}
