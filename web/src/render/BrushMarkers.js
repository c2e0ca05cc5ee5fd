// The brush's regions on "Your model" (ui/modelBrush.js), drawn in the model's rest shape where
// the body is drawn: a painted sphere orange, a pinned one grey, both see-through.
import * as THREE from 'three';

const look = (color) =>
  new THREE.MeshBasicMaterial({ color, transparent: true, opacity: 0.35, depthWrite: false });

export class BrushMarkers {
  constructor(scene) {
    this.group = new THREE.Group();
    this.group.visible = false;
    this.sphere = new THREE.SphereGeometry(1, 24, 16);
    this.materials = { painted: look(0xff8c1a), pinned: look(0x8a8f99) };
    scene.add(this.group);
  }

  /** painted, pinned: [{ center, radius }] in the model's coordinates; offset: where it is drawn. */
  show(painted, pinned, offset) {
    this.group.clear();
    this.group.position.copy(offset);
    for (const [regions, material] of [
      [painted, this.materials.painted],
      [pinned, this.materials.pinned],
    ]) {
      for (const { center, radius } of regions) {
        const marker = new THREE.Mesh(this.sphere, material);
        marker.position.set(...center);
        marker.scale.setScalar(radius);
        this.group.add(marker);
      }
    }
  }

  set visible(on) {
    this.group.visible = on;
  }
}
