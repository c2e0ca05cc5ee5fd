import * as THREE from 'three';
import { ContactStage } from './ContactStage.js';
import { SkinnedSurface } from './SkinnedSurface.js';
import { drawnBounds } from './drawnBounds.js';
import { boxKeepingInView, framedCamera } from './framing.js';

/**
 * The frames of `smfem simulate --render` (wasm/js/render_frames.js), drawn in headless
 * Chromium: the page's own stages (a SkinnedSurface, or a ContactStage with its obstacles) on a
 * canvas of a fixed size, lit like the page's View but with no floor, grid or controls. Node
 * hands it the render surfaces once (open) and each frame's reduced coordinates (draw).
 */
export class FrameView {
  /** canvas: sized width x height device pixels (the page sets no pixel ratio). */
  constructor(canvas, width, height) {
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(1);
    this.renderer.setSize(width, height, false);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x15171c);
    this.camera = new THREE.PerspectiveCamera(40, width / height, 0.01, 100);
    this.scene.add(new THREE.HemisphereLight(0xdde6ff, 0x2a2520, 1.2));
    this.sun = new THREE.DirectionalLight(0xffffff, 2.0);
    this.scene.add(this.sun, this.sun.target);
    this.stage = null;
  }

  /**
   * Shows a body or a scene with contact. description: { surfaces (smfem.pageAsset(...).surface
   * of each body), contact (ContactScene.info, or null for one body), camera ({ position, target },
   * or null: framed on the rest bounds) }.
   */
  open({ surfaces, contact, camera }) {
    if (contact) {
      this.stage = new ContactStage(contact, surfaces);
      this.setU = (u, obstacleOffsets) =>
        this.stage.show({ u: [Float64Array.from(u)], obstacleOffsets: obstacleOffsets && [obstacleOffsets] });
      this.bodies = () => this.stage.bodies;
      this.framing = { box: this.stage.bounds.clone(), home: this.stage.bounds.clone(), camera };
    } else {
      this.stage = new SkinnedSurface(surfaces[0]);
      this.setU = (u) => this.stage.setReducedCoordinates(u);
      const origin = new THREE.Vector3();
      this.bodies = () => [{ surface: surfaces[0], offset: origin, u: this.stage.u }];
      this.framing = { box: this.stage.restBounds.clone(), home: this.stage.restBounds.clone(), camera };
    }
    this.frame(this.framing.box, camera);
    this.scene.add(this.stage.object ?? this.stage.mesh);
    // One frame at rest, waited for: the shaders compile here, not in the first frame.
    this.renderer.render(this.scene, this.camera);
    this.renderer.getContext().finish();
  }

  // The camera framing the box as the page's View does (framing.js); the sun high on the right.
  frame(box, camera) {
    const center = box.getCenter(new THREE.Vector3());
    const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-6);
    const tan = Math.tan(THREE.MathUtils.degToRad(this.camera.fov) / 2);
    const framed = framedCamera(box, camera, { x: tan * this.camera.aspect, y: tan });
    this.camera.position.copy(framed.position);
    this.camera.near = radius / 100;
    this.camera.far = radius * 100;
    this.camera.lookAt(framed.target);
    this.camera.updateProjectionMatrix();
    this.sun.position.copy(center).add(new THREE.Vector3(2, 4, 1.5).multiplyScalar(radius));
    this.sun.target.position.copy(center);
  }

  /**
   * Draws one frame: u, the reduced coordinates (a body's 12m, or a scene's U, 4M x 3
   * column-major; any array of numbers); obstacleOffsets, each obstacle's translation (scenes with contact).
   */
  draw(u, obstacleOffsets) {
    this.setU(u, obstacleOffsets);
    // As the page's View.keepInView: the frame widens, then follows the bodies.
    const kept = boxKeepingInView(this.framing.box, this.framing.home, drawnBounds(this.bodies()));
    if (kept) {
      this.framing.box = kept;
      this.frame(kept, this.framing.camera);
    }
    this.renderer.render(this.scene, this.camera);
  }

  dispose() {
    this.stage?.dispose();
    this.renderer.dispose();
  }
}
