import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { drawnBounds } from './drawnBounds.js';
import { boxKeepingInView, framedCamera } from './framing.js';
import { renderQuality, rendererName } from './renderQuality.js';

/**
 * A three.js view of one body: lights, soft shadows (where the browser has a graphics card:
 * renderQuality.js), a ground reference and orbit controls.
 */
export class View {
  /**
   * onContextChange(lost): the GPU context was lost (true) or restored (false). overlay: an
   * element floating over the canvas's left side (the control panel); the view centres the body
   * in the part of the canvas it leaves free.
   */
  constructor(canvas, onContextChange = () => {}, overlay = null) {
    this.overlay = overlay;
    this.quality = renderQuality(rendererName(), window.devicePixelRatio);
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: this.quality.antialias });
    // three.js rebuilds its GPU state on restore; the page only has to say what happened.
    canvas.addEventListener('webglcontextlost', (event) => {
      event.preventDefault();
      onContextChange(true);
    });
    canvas.addEventListener('webglcontextrestored', () => {
      this.invalidate();
      onContextChange(false);
    });
    this.renderer.setPixelRatio(this.quality.pixelRatio);
    // Drawn only when something changed (a paused page costs nothing; a page redrawing every
    // frame also kept a software-rendered browser from taking a screenshot for seconds).
    this.needsRender = true;
    // Layout is read only when the canvas or the panel changed size, not every frame.
    this.layoutChanged = true;
    const observer = new ResizeObserver(() => (this.layoutChanged = true));
    observer.observe(canvas);
    if (overlay) observer.observe(overlay);
    this.renderer.shadowMap.enabled = this.quality.shadows;
    this.renderer.shadowMap.type = THREE.PCFSoftShadowMap;

    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x15171c);
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.01, 100);
    this.controls = new OrbitControls(this.camera, canvas);
    // The camera stays above the ground: seen from below, the ground would hide the body.
    this.controls.maxPolarAngle = 0.49 * Math.PI;
    this.controls.addEventListener('change', () => this.invalidate());
    // Until the user moves the camera, a change of the canvas's shape frames the scene anew.
    this.framing = null;
    this.controls.addEventListener('start', () => (this.framing = null));

    this.scene.add(new THREE.HemisphereLight(0xdde6ff, 0x2a2520, 1.2));
    this.sun = new THREE.DirectionalLight(0xffffff, 2.0);
    this.sun.castShadow = true;
    this.sun.shadow.mapSize.set(2048, 2048);
    this.sun.shadow.radius = 4;
    this.scene.add(this.sun);

    this.ground = new THREE.Mesh(
      new THREE.PlaneGeometry(1, 1),
      new THREE.MeshStandardMaterial({ color: 0x3a3f4a, roughness: 0.95 }),
    );
    this.ground.rotation.x = -Math.PI / 2;
    this.ground.receiveShadow = true;
    this.scene.add(this.ground);
    this.grid = null;
    this.body = null;
  }

  /**
   * Shows a body or a scene (replacing the previous one) and frames it by its rest bounds; floor:
   * the height of the ground it stands on (a scene's floor obstacle, drawn solid), or null: just
   * below it, drawn see-through, since nothing collides with it and a body swinging below its
   * rest place must stay in sight.
   */
  setBody(object, restBounds, camera = null, floor = null) {
    if (this.body) this.scene.remove(this.body);
    this.body = object;
    this.scene.add(object);
    const material = this.ground.material;
    material.transparent = floor === null;
    material.opacity = floor === null ? 0.35 : 1;
    material.depthWrite = floor !== null;
    material.needsUpdate = true;
    this.frame(restBounds, camera, floor);
    this.invalidate();
  }

  /** 'obstacle' where the ground is a scene's floor, 'reference' where it is only drawn. */
  get floorKind() {
    return this.ground.material.transparent ? 'reference' : 'obstacle';
  }

  // Frames the body's bounding box: ground, light and camera around it; camera: the scene's
  // { position, target } when its recipe gives one (framing.js: its direction is kept).
  frame(box, camera, floor) {
    const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-6);
    // The ground stays at this height whatever the camera follows (a reference floor under a
    // falling body would fall with it, and the body would seem to stand still).
    this.groundHeight = floor ?? box.min.y - 1e-3 * radius;
    this.stageAround(box);
    this.framing = { box, camera, size: null, home: box };
    this.layoutChanged = true;
    this.resize();
  }

  /**
   * Keeps a stage's bodies (stage.bodies, drawnBounds.js) in the picture while the user has not
   * moved the camera: the framed box widens, then follows them (framing.js: boxKeepingInView).
   * Ground and light follow when the box leaves their reach.
   */
  keepInView(bodies) {
    if (!this.framing) return; // the user's camera: nothing to skin
    const kept = boxKeepingInView(this.framing.box, this.framing.home, drawnBounds(bodies));
    if (!kept) return;
    this.framing.box = kept;
    const staged = this.staged;
    const center = this.framing.box.getCenter(new THREE.Vector3());
    const radius = this.framing.box.getSize(new THREE.Vector3()).length() / 2;
    if (radius > 1.25 * staged.radius || center.distanceTo(staged.center) > staged.radius / 2) {
      this.stageAround(this.framing.box);
    }
    this.placeCamera();
    this.invalidate();
  }

  /** Back to the box the scene was framed on (a reset), unless the user moved the camera. */
  frameHome() {
    if (!this.framing) return;
    this.framing.box = this.framing.home;
    this.stageAround(this.framing.home);
    this.placeCamera();
    this.invalidate();
  }

  // Ground, grid, sun and its shadow's reach around the box (the ground at the height frame()
  // set: the scene's floor, or just below the box it framed first).
  stageAround(box) {
    const size = box.getSize(new THREE.Vector3());
    const center = box.getCenter(new THREE.Vector3());
    const radius = Math.max(size.length() / 2, 1e-6);
    this.staged = { center, radius };
    this.ground.position.set(center.x, this.groundHeight, center.z);
    this.ground.scale.setScalar(radius * 12);
    if (this.grid) {
      this.scene.remove(this.grid);
      this.grid.dispose();
    }
    this.grid = new THREE.GridHelper(radius * 12, 24, 0x596273, 0x3f4654);
    this.grid.position.copy(this.ground.position).add(new THREE.Vector3(0, 1e-3 * radius, 0));
    this.scene.add(this.grid);
    this.camera.near = radius / 100;
    this.camera.far = radius * 100;
    this.sun.position.copy(center).add(new THREE.Vector3(2, 4, 1.5).multiplyScalar(radius));
    this.sun.target.position.copy(center);
    this.scene.add(this.sun.target);
    const shadow = this.sun.shadow.camera;
    shadow.left = shadow.bottom = -3 * radius;
    shadow.right = shadow.top = 3 * radius;
    shadow.near = radius / 10;
    shadow.far = radius * 20;
    shadow.updateProjectionMatrix();
  }

  // How far the overlay covers the canvas: from the left, when it is a side panel; from the
  // top, when it is a bar across a narrow screen (not when unfolded over most of it); 0 otherwise.
  overlayInsets(width, height) {
    const none = { left: 0, top: 0 };
    if (!this.overlay || this.overlay.hidden) return none;
    const canvas = this.renderer.domElement.getBoundingClientRect();
    const panel = this.overlay.getBoundingClientRect();
    const reach = panel.right - canvas.left;
    const below = panel.bottom - canvas.top;
    if (panel.left - canvas.left < 40 && reach > 0 && reach < 0.45 * width) {
      return { left: Math.round(reach), top: 0 };
    }
    if (panel.top - canvas.top < 40 && panel.width > 0.6 * width && below > 0 && below < 0.4 * height) {
      return { left: 0, top: Math.round(below) };
    }
    return none;
  }

  /**
   * Turns the camera about the point it looks at by azimuth (about the vertical) and polar
   * (towards the top) radians, within the orbit controls' limits: a move of the user's.
   */
  orbit(azimuth, polar) {
    const offset = this.camera.position.clone().sub(this.controls.target);
    const spherical = new THREE.Spherical().setFromVector3(offset);
    spherical.theta += azimuth;
    spherical.phi = THREE.MathUtils.clamp(spherical.phi - polar, 1e-3, this.controls.maxPolarAngle);
    this.moveCamera(new THREE.Vector3().setFromSpherical(spherical));
  }

  /** Moves the camera towards (factor < 1) or away from (> 1) the point it looks at. */
  dolly(factor) {
    this.moveCamera(this.camera.position.clone().sub(this.controls.target).multiplyScalar(factor));
  }

  // The camera to target + offset, as the user asked: no longer framed anew on a resize.
  moveCamera(offset) {
    this.framing = null;
    this.camera.position.copy(this.controls.target).add(offset);
    this.controls.update();
    this.invalidate();
  }

  /** The box the camera frames, [min, max], or null before a scene or once the user moved the camera. */
  framedBox() {
    return this.framing && [this.framing.box.min.toArray(), this.framing.box.max.toArray()];
  }

  /** Where a point of the world ([x, y, z]) is drawn, in the page's client pixels. */
  project(point) {
    const ndc = new THREE.Vector3(...point).project(this.camera);
    const rect = this.renderer.domElement.getBoundingClientRect();
    return { x: rect.left + ((ndc.x + 1) / 2) * rect.width, y: rect.top + ((1 - ndc.y) / 2) * rect.height };
  }

  resize() {
    if (!this.layoutChanged) return;
    this.layoutChanged = false;
    const canvas = this.renderer.domElement;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / Math.max(height, 1);
    // Shrink the picture to the free width and shift it right by half the side panel's inset:
    // what the camera frames fills the part of the canvas the panel leaves free.
    const inset = this.overlayInsets(width, height);
    const free = width > 0 ? (width - inset.left) / width : 1;
    this.camera.zoom = free;
    if (inset.left > 0) this.camera.setViewOffset(width, height, -inset.left / 2, 0, width, height);
    else this.camera.clearViewOffset();
    this.camera.updateProjectionMatrix();
    // Framed anew only when the canvas changes size (not when the panel's text rewraps: the
    // picture would breathe with the status line).
    const size = `${width}x${height}`;
    if (this.framing && this.framing.size !== size) {
      this.framing.size = size;
      this.placeCamera();
    }
    this.invalidate();
  }

  // The camera where it shows the framed box whole in the part of the canvas the panel leaves free.
  placeCamera() {
    const canvas = this.renderer.domElement;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    const inset = this.overlayInsets(width, height);
    const free = width > 0 ? (width - inset.left) / width : 1;
    const tan = Math.tan(THREE.MathUtils.degToRad(this.camera.fov) / 2) / this.camera.zoom;
    // A bar across the top (a phone's folded panel) hides the picture's top: the scene fits
    // in the band it leaves, kept as far from the bottom edge as from the bar.
    const band = height > 0 ? Math.max(1 - (2 * inset.top) / height, 0.2) : 1;
    const tanHalf = { x: tan * this.camera.aspect * free, y: tan * band };
    const { position, target } = framedCamera(this.framing.box, this.framing.camera, tanHalf);
    this.camera.position.copy(position);
    this.controls.target.copy(target);
    this.controls.update();
  }

  /** The picture is out of date: something drawn moved or changed colour. */
  invalidate() {
    this.needsRender = true;
  }

  /** Draws if anything changed since the last picture; says whether it drew. */
  renderIfChanged() {
    this.controls.update();
    if (!this.needsRender && !this.layoutChanged) return false;
    this.needsRender = false;
    this.resize();
    this.renderer.render(this.scene, this.camera);
    return true;
  }
}
