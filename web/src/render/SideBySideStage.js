import * as THREE from 'three';
import { SkinnedSurface } from './SkinnedSurface.js';

// One colour per simulator side by side (left warm, then cool, then green), so they read apart.
export const bodyColours = [0xe0785a, 0x5a9ee0, 0x6cc28a];

/**
 * How far apart (along x) copies of a body must stand never to touch: a body turning about any
 * of its own points stays within a sphere of its rest bounding box's diagonal around that
 * point, so two such spheres, a diagonal each, need twice the diagonal between the points.
 * (Stretching beyond the rest size is not covered; it is small in every scene.)
 */
export function sideBySideSpacing(restBounds) {
  return 2 * restBounds.getSize(new THREE.Vector3()).length();
}

// The least height a label is drawn at, as a fraction of the canvas's height: side by side the
// far body's label, `height` scene units tall, was 5 pixels high on a 640-pixel canvas.
const kLeastLabelHeight = 0.025;
const labelPlace = new THREE.Vector3();

// A label drawn into the WebGL canvas (so screenshots and recordings keep it): text on a dark
// rounded plate, always on top, `height` scene units tall, or taller where that would be drawn
// below kLeastLabelHeight.
function labelSprite(text, height) {
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  const font = '600 44px system-ui, sans-serif';
  context.font = font;
  canvas.width = Math.ceil(context.measureText(text).width) + 48;
  canvas.height = 72;
  context.font = font;
  context.fillStyle = 'rgba(20, 22, 28, 0.78)';
  context.beginPath();
  context.roundRect(0, 0, canvas.width, canvas.height, 16);
  context.fill();
  context.fillStyle = '#f2f3f5';
  context.textBaseline = 'middle';
  context.fillText(text, 24, canvas.height / 2 + 2);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: texture, depthTest: false }));
  const aspect = canvas.width / canvas.height;
  sprite.scale.set(height * aspect, height, 1);
  sprite.renderOrder = 1;
  sprite.onBeforeRender = (renderer, scene, camera) => {
    // A perspective camera draws h at distance d as h * P[1][1] / (2 d) of the canvas's height.
    const distance = camera.position.distanceTo(sprite.getWorldPosition(labelPlace));
    const least = (2 * kLeastLabelHeight * distance) / camera.projectionMatrix.elements[5];
    const drawn = Math.max(height, least);
    if (drawn === sprite.scale.y) return;
    sprite.scale.set(drawn * aspect, drawn, 1);
    sprite.updateMatrixWorld(); // the renderer reads it right after this call
  };
  return sprite;
}

/** Labels drawn into the canvas over a group's bodies (side by side: what runs each). */
export class CanvasLabels {
  constructor(parent) {
    this.parent = parent;
    this.sprites = [];
  }

  /** texts[i] centred at positions[i] (THREE.Vector3), `height` scene units tall, replacing any before. */
  set(texts, positions, height) {
    this.dispose();
    this.sprites = texts.map((text, i) => {
      const sprite = labelSprite(text, height);
      sprite.position.copy(positions[i]);
      this.parent.add(sprite);
      return sprite;
    });
  }

  dispose() {
    for (const sprite of this.sprites) {
      this.parent.remove(sprite);
      sprite.material.map.dispose();
      sprite.material.dispose();
    }
    this.sprites = [];
  }
}

/**
 * What the page draws for a body on its own: one skinned copy of its render surface per
 * simulator; side by side, each in its own colour, labelled with what runs it, and spaced so
 * they never overlap (sideBySideSpacing). A lineup (the same object baked at several
 * resolutions) draws each simulator's own asset the same way.
 */
export class SideBySideStage {
  /**
   * pages: per simulator, its asset's { surface, markers } (smfem.pageAsset) and dent (it runs
   * local deformations: show() draws them).
   */
  constructor(pages) {
    const count = pages.length;
    this.surfaces = pages.map(
      ({ surface, markers, dent = false }, i) =>
        new SkinnedSurface(surface, { markers, dent, ...(count > 1 ? { color: bodyColours[i] } : {}) }),
    );
    // Labels stand above the highest body and spacing fits the largest.
    const rest = new THREE.Box3();
    for (const skinned of this.surfaces) rest.union(skinned.restBounds);
    this.restBounds = rest;
    const spacing = sideBySideSpacing(rest);
    this.object = new THREE.Group();
    this.bounds = new THREE.Box3();
    this.bodies = this.surfaces.map((skinned, i) => {
      const offset = new THREE.Vector3((i - (count - 1) / 2) * spacing, 0, 0);
      skinned.mesh.position.copy(offset);
      this.object.add(skinned.mesh);
      this.bounds.union(skinned.restBounds.clone().translate(offset));
      return { surface: pages[i].surface, offset, u: null, skinned };
    });
    this.labels = new CanvasLabels(this.object);
    this.obstacles = [];
    this.floor = null; // the view's floor goes under the body
  }

  get hasClusters() {
    return this.surfaces[0].hasClusters;
  }

  /** Labels each body above its rest place (texts[i] for simulator i), replacing any before. */
  setLabels(texts) {
    const size = this.restBounds.getSize(new THREE.Vector3());
    const height = 0.12 * Math.max(size.x, size.y, size.z);
    const above = new THREE.Vector3(0, this.restBounds.max.y + 1.5 * height, 0);
    this.labels.set(
      texts,
      this.bodies.map(({ offset }) => offset.clone().add(above)),
      height,
    );
  }

  /** answer.u[i]: simulator i's reduced coordinates; dents[i]: its dent (SkinnedSurface.setDent). */
  show({ u, dents }) {
    u.forEach((coordinates, i) => {
      const skinned = this.surfaces[i];
      skinned.setReducedCoordinates(coordinates);
      if (skinned.dent) skinned.setDent(dents?.[i] ?? null);
      this.bodies[i].u = coordinates;
    });
  }

  /** Whether "Colour: material" can paint the regions (one body: side by side, the bodies keep their solvers' colours). */
  get paintsRegions() {
    return this.surfaces.length === 1 && this.surfaces[0].hasRegions;
  }

  // The teaching views: clusters over a mode's weight over the material regions' colours.
  applyColouring({ clusters, mode, regionColours }) {
    for (const skinned of this.surfaces) {
      skinned.paint({ clusters, regionColours: this.paintsRegions ? regionColours : null });
      skinned.colourByMode(clusters ? -1 : mode - 1);
    }
  }

  dispose() {
    this.labels.dispose();
    for (const skinned of this.surfaces) skinned.dispose();
  }
}
