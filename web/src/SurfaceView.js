import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

/** A three.js view of one triangle surface: lights, a ground reference and orbit controls. */
export class SurfaceView {
  constructor(canvas) {
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.renderer.shadowMap.enabled = true;
    this.renderer.shadowMap.type = THREE.PCFSoftShadowMap;

    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x15171c);
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.01, 100);
    this.controls = new OrbitControls(this.camera, canvas);

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
    this.mesh = null;
  }

  /** Shows a surface: positions (n x 3 floats) and triangles (t x 3 indices, 0-based). */
  setSurface(positions, triangles) {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
    geometry.setIndex(new THREE.BufferAttribute(triangles, 1));
    geometry.computeVertexNormals();
    geometry.computeBoundingBox();
    const material = new THREE.MeshStandardMaterial({ color: 0xe0785a, roughness: 0.55, metalness: 0.05 });
    if (this.mesh) {
      this.scene.remove(this.mesh);
      this.mesh.geometry.dispose();
    }
    this.mesh = new THREE.Mesh(geometry, material);
    this.mesh.castShadow = true;
    this.scene.add(this.mesh);
    this.frame(geometry.boundingBox);
  }

  // Places camera, light and ground around the body's bounding box.
  frame(box) {
    const size = box.getSize(new THREE.Vector3());
    const center = box.getCenter(new THREE.Vector3());
    const radius = Math.max(size.length() / 2, 1e-6);
    this.ground.position.set(center.x, box.min.y - 1e-3 * radius, center.z);
    this.ground.scale.setScalar(radius * 12);
    if (this.grid) this.scene.remove(this.grid);
    this.grid = new THREE.GridHelper(radius * 12, 24, 0x596273, 0x3f4654);
    this.grid.position.copy(this.ground.position).add(new THREE.Vector3(0, 1e-3 * radius, 0));
    this.scene.add(this.grid);
    this.camera.near = radius / 100;
    this.camera.far = radius * 100;
    this.camera.position.copy(center).add(new THREE.Vector3(1.6, 1.1, 2.2).multiplyScalar(radius));
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.update();
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

  resize() {
    const canvas = this.renderer.domElement;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    if (canvas.width !== Math.floor(width * this.renderer.getPixelRatio()) || canvas.height !== Math.floor(height * this.renderer.getPixelRatio())) {
      this.renderer.setSize(width, height, false);
      this.camera.aspect = width / Math.max(height, 1);
      this.camera.updateProjectionMatrix();
    }
  }

  render() {
    this.resize();
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
  }
}
