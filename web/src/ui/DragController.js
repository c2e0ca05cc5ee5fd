// Grab and pull the body with mouse, pen or finger. A press on a body attaches a spring (in the
// solver, reduced through the render weights) from the vertex nearest the press to a target
// that follows the pointer on the plane facing the camera; a press elsewhere orbits. Side by
// side, every body gets the same spring at the same place relative to itself (same inputs).
//
// Picking needs the deformed surface, which only the GPU holds: on press, each body is skinned
// once on the CPU (skinVertex, the shader's reference) into a pick-only mesh.
import * as THREE from 'three';
import { skinPoints } from '../render/skinning.js';

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
    this.pointer = null; // id of the pointer holding a body
    this.bodies = [];
    this.canvas.addEventListener('pointerdown', (event) => this.press(event));
    this.canvas.addEventListener('pointermove', (event) => this.move(event));
    this.canvas.addEventListener('pointerup', (event) => this.release(event));
    this.canvas.addEventListener('pointercancel', (event) => this.release(event));
  }

  /**
   * The scene's render surface (rest positions, weights), the drag spring's N/m, and where each
   * body is drawn (a THREE.Vector3 offset per simulator).
   */
  attach(surface, stiffness, offsets) {
    this.surface = surface;
    this.stiffness = stiffness;
    this.bodies = offsets.map((offset) => {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute(
        'position',
        new THREE.BufferAttribute(new Float32Array(surface.positions.length), 3),
      );
      geometry.setIndex(new THREE.BufferAttribute(surface.triangles, 1));
      const mesh = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({ side: THREE.DoubleSide }));
      return { offset, mesh, u: null };
    });
  }

  /** The latest reduced coordinates of each body (what the GPU draws). */
  setCoordinates(us) {
    us.forEach((u, i) => (this.bodies[i].u = u));
  }

  // A world point near body `from`, in the simulators' own (undisplaced) coordinates: the same
  // target for every simulator.
  targets(point, from) {
    const local = point.clone().sub(from.offset).toArray();
    return this.bodies.map(() => local);
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

  // Skins every render vertex of a body once into its pick mesh.
  deformPickMesh(body) {
    const { positions, weights, modeCount, vertexCount } = this.surface;
    const out = body.mesh.geometry.attributes.position;
    const { x: dx, y: dy, z: dz } = body.offset;
    skinPoints(positions, weights, body.u, modeCount, vertexCount, (v, x, y, z) =>
      out.setXYZ(v, x + dx, y + dy, z + dz),
    );
    out.needsUpdate = true;
    body.mesh.geometry.computeBoundingSphere();
    body.mesh.geometry.computeBoundingBox();
  }

  press(event) {
    if (this.pointer !== null || !this.bodies.length || event.button > 0) return;
    if (this.bodies.some((body) => !body.u)) return;
    this.ray(event);
    let best = null;
    for (const body of this.bodies) {
      this.deformPickMesh(body);
      const [hit] = this.raycaster.intersectObject(body.mesh, false);
      if (hit && (!best || hit.distance < best.hit.distance)) best = { body, hit };
    }
    if (!best) return; // orbit instead
    const { body, hit } = best;
    const position = body.mesh.geometry.attributes.position;
    const distance = (v) => new THREE.Vector3().fromBufferAttribute(position, v).distanceToSquared(hit.point);
    const vertex = [hit.face.a, hit.face.b, hit.face.c].reduce((a, b) => (distance(b) < distance(a) ? b : a));
    const grabbed = new THREE.Vector3().fromBufferAttribute(position, vertex);

    event.preventDefault();
    event.stopImmediatePropagation();
    this.canvas.setPointerCapture(event.pointerId);
    this.pointer = event.pointerId;
    this.held = body;
    this.view.controls.enabled = false;
    this.plane.setFromNormalAndCoplanarPoint(
      this.view.camera.getWorldDirection(new THREE.Vector3()),
      grabbed,
    );
    this.client.dragStart(vertex, this.targets(grabbed, body), this.stiffness).catch(this.onError);
    this.onDrag(true);
  }

  move(event) {
    if (event.pointerId !== this.pointer) return;
    const target = this.ray(event).intersectPlane(this.plane, new THREE.Vector3());
    if (target) this.client.dragMove(this.targets(target, this.held)).catch(this.onError);
  }

  release(event) {
    if (event.pointerId !== this.pointer) return;
    this.pointer = null;
    this.view.controls.enabled = true;
    this.client.dragEnd().catch(this.onError);
    this.onDrag(false);
  }
}
