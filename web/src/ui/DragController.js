// Grab and pull the body with mouse, pen or finger. A press on the body attaches a spring
// (in the solver, reduced through the render weights) from the vertex nearest the press to a
// target that follows the pointer on the plane facing the camera; a press elsewhere orbits.
//
// Picking needs the deformed surface, which only the GPU holds: on press, the surface is
// skinned once on the CPU (skinVertex, the shader's reference) into a pick-only mesh.
import * as THREE from 'three';
import { skinVertex } from '../render/skinning.js';

export class DragController {
  /** onDrag(active): a drag started (true) or ended (false). */
  constructor(view, client, onError, onDrag = () => {}) {
    this.view = view;
    this.client = client;
    this.onError = onError;
    this.onDrag = onDrag;
    this.canvas = view.renderer.domElement;
    this.canvas.style.touchAction = 'none';
    this.raycaster = new THREE.Raycaster();
    this.plane = new THREE.Plane();
    this.pointer = null; // id of the pointer holding the body
    this.u = null;
    this.canvas.addEventListener('pointerdown', (event) => this.press(event));
    this.canvas.addEventListener('pointermove', (event) => this.move(event));
    this.canvas.addEventListener('pointerup', (event) => this.release(event));
    this.canvas.addEventListener('pointercancel', (event) => this.release(event));
  }

  /** The scene's render surface (rest positions, weights) and the drag spring's N/m. */
  attach(surface, stiffness) {
    this.surface = surface;
    this.stiffness = stiffness;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute(
      'position',
      new THREE.BufferAttribute(new Float32Array(surface.positions.length), 3),
    );
    geometry.setIndex(new THREE.BufferAttribute(surface.triangles, 1));
    this.pickMesh = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({ side: THREE.DoubleSide }));
  }

  /** The latest reduced coordinates (what the GPU draws). */
  setCoordinates(u) {
    this.u = u;
  }

  ray(event) {
    const rect = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(
      ((event.clientX - rect.left) / rect.width) * 2 - 1,
      -((event.clientY - rect.top) / rect.height) * 2 + 1,
    );
    this.raycaster.setFromCamera(ndc, this.view.camera);
    return this.raycaster.ray;
  }

  // Skins every render vertex once into the pick mesh.
  deformPickMesh() {
    const { positions, weights, modeCount, vertexCount } = this.surface;
    const out = this.pickMesh.geometry.attributes.position;
    const moved = new Float64Array(3);
    for (let v = 0; v < vertexCount; v++) {
      skinVertex(
        positions.subarray(3 * v, 3 * v + 3),
        weights.subarray(v * modeCount, (v + 1) * modeCount),
        this.u,
        modeCount,
        moved,
      );
      out.setXYZ(v, moved[0], moved[1], moved[2]);
    }
    out.needsUpdate = true;
    this.pickMesh.geometry.computeBoundingSphere();
    this.pickMesh.geometry.computeBoundingBox();
  }

  press(event) {
    if (this.pointer !== null || !this.surface || !this.u || event.button > 0) return;
    this.deformPickMesh();
    this.ray(event);
    const [hit] = this.raycaster.intersectObject(this.pickMesh, false);
    if (!hit) return; // orbit instead
    const face = hit.face;
    const position = this.pickMesh.geometry.attributes.position;
    const corners = [face.a, face.b, face.c];
    const distance = (v) => new THREE.Vector3().fromBufferAttribute(position, v).distanceToSquared(hit.point);
    const vertex = corners.reduce((best, v) => (distance(v) < distance(best) ? v : best));
    const grabbed = new THREE.Vector3().fromBufferAttribute(position, vertex);

    event.preventDefault();
    event.stopImmediatePropagation();
    this.canvas.setPointerCapture(event.pointerId);
    this.pointer = event.pointerId;
    this.view.controls.enabled = false;
    this.plane.setFromNormalAndCoplanarPoint(
      this.view.camera.getWorldDirection(new THREE.Vector3()),
      grabbed,
    );
    this.client.dragStart(vertex, grabbed.toArray(), this.stiffness).catch(this.onError);
    this.onDrag(true);
  }

  move(event) {
    if (event.pointerId !== this.pointer) return;
    const target = this.ray(event).intersectPlane(this.plane, new THREE.Vector3());
    if (target) this.client.dragMove(target.toArray()).catch(this.onError);
  }

  release(event) {
    if (event.pointerId !== this.pointer) return;
    this.pointer = null;
    this.view.controls.enabled = true;
    this.client.dragEnd().catch(this.onError);
    this.onDrag(false);
  }
}
