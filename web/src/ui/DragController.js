// Grab and pull bodies, and move obstacles, with mouse, pen or finger. A press on a body attaches
// a spring (in the solver, reduced through the render weights) from the vertex nearest the press
// to a target that follows the pointer on the plane facing the camera; a press on a movable
// obstacle drags it the same way (the solver moves it as far as the bodies allow), and with
// Shift held a press grabs the obstacle under the pointer even where a body lies over it (a
// cloth draped on a sphere); a press elsewhere orbits. The keyboard grabs what lies at the
// point the camera looks at (or the body vertex drawn nearest it) and pulls it by steps
// (KeyboardControls.js). With a tool set (the brush of "Your model"), a press on a body
// hands the tool the vertex under it instead.
//
// Picking needs the deformed surface, which only the GPU holds: on press, each body is skinned
// once on the CPU (skinVertex, the shader's reference) into a pick-only mesh.
import * as THREE from 'three';
import { skinPoints } from '../render/skinning.js';

export class DragController {
  /** onDrag(active): a drag started (true) or ended (false). */
  constructor(view, onError, onDrag = () => {}) {
    this.view = view;
    this.onError = onError;
    this.onDrag = onDrag;
    this.canvas = view.renderer.domElement;
    this.canvas.style.touchAction = 'none';
    this.raycaster = new THREE.Raycaster();
    this.plane = new THREE.Plane();
    this.pointer = null; // id of the pointer holding something
    this.held = null; // { body, target } or { obstacle, grabbed, startOffset, target }
    this.tool = null; // tool(body, vertex): what a press on a body does instead of a grab
    this.bodies = [];
    this.obstacles = [];
    this.canvas.addEventListener('pointerdown', (event) => this.press(event));
    this.canvas.addEventListener('pointermove', (event) => this.move(event));
    this.canvas.addEventListener('pointerup', (event) => this.release(event));
    this.canvas.addEventListener('pointercancel', (event) => this.release(event));
  }

  /**
   * What can be grabbed: stage.bodies, [{ surface (rest positions, weights), offset (a
   * THREE.Vector3 where it is drawn), u (its latest reduced coordinates) }], and
   * stage.obstacles, [{ index, mesh (drawn where it is), offset (THREE.Vector3) }] that may
   * move. What a drag does: actions.grab(body, vertex, point), pull(point), release() and
   * moveObstacle(index, offset), in the world's coordinates.
   */
  attach(stage, actions) {
    for (const { mesh } of this.bodies) mesh.traverse((object) => object.geometry?.dispose());
    this.stage = stage;
    this.actions = actions;
    // A surface is picked by its triangles; rods' vertices (surface.points, or every vertex of a
    // surface without triangles) as points within its pickRadius. Both share one position array.
    this.bodies = stage.bodies.map(({ surface }) => {
      const position = new THREE.BufferAttribute(new Float32Array(surface.positions.length), 3);
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', position);
      const points = () => {
        const pointGeometry = new THREE.BufferGeometry();
        pointGeometry.setAttribute('position', position);
        if (surface.points) pointGeometry.setIndex(new THREE.BufferAttribute(surface.points, 1));
        return new THREE.Points(pointGeometry);
      };
      if (!surface.triangles) return { mesh: points(), pickRadius: surface.pickRadius };
      geometry.setIndex(new THREE.BufferAttribute(surface.triangles, 1));
      const mesh = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({ side: THREE.DoubleSide }));
      if (surface.points) mesh.add(points());
      return { mesh, pickRadius: surface.points ? surface.pickRadius : undefined };
    });
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

  // Skins every render vertex of body i once into its pick mesh (a body drawn from the solver's
  // own vertex positions, a shell's, gives them as drawnPositions instead).
  deformPickMesh(i) {
    const { surface, offset, u, drawnPositions } = this.stage.bodies[i];
    const geometry = this.bodies[i].mesh.geometry;
    const out = geometry.attributes.position;
    if (drawnPositions) {
      for (let v = 0; v < out.count; v++) {
        const [x, y, z] = drawnPositions.subarray(3 * v, 3 * v + 3);
        out.setXYZ(v, x + offset.x, y + offset.y, z + offset.z);
      }
    } else {
      const { positions, weights, modeCount, vertexCount } = surface;
      skinPoints(positions, weights, u, modeCount, vertexCount, (v, x, y, z) =>
        out.setXYZ(v, x + offset.x, y + offset.y, z + offset.z),
      );
    }
    out.needsUpdate = true;
    for (const pickable of [this.bodies[i].mesh, ...this.bodies[i].mesh.children]) {
      pickable.geometry.computeBoundingSphere();
      pickable.geometry.computeBoundingBox();
    }
  }

  // The nearest thing under the pointer: { body, hit } or { obstacle, hit }, or null; with
  // obstaclesOnly, the nearest obstacle.
  pick(obstaclesOnly = false) {
    let best = null;
    const consider = (found, hit) => {
      if (hit && (!best || hit.distance < best.hit.distance)) best = { ...found, hit };
    };
    const bodies = obstaclesOnly ? [] : this.stage.bodies;
    bodies.forEach((_, body) => {
      this.deformPickMesh(body);
      const { mesh, pickRadius } = this.bodies[body];
      if (pickRadius) this.raycaster.params.Points.threshold = pickRadius;
      consider({ body }, this.raycaster.intersectObject(mesh, true)[0]); // with its rods' points
    });
    for (const obstacle of this.stage.obstacles) {
      consider({ obstacle }, this.raycaster.intersectObject(obstacle.mesh, false)[0]);
    }
    return best;
  }

  press(event) {
    if (this.pointer !== null || !this.stage || event.button > 0) return;
    this.ray(event);
    if (!(this.tool ? this.useTool() : this.grab(event.shiftKey))) return; // orbit instead
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!this.held) return; // the tool's click holds nothing
    this.canvas.setPointerCapture(event.pointerId);
    this.pointer = event.pointerId;
  }

  /**
   * Grabs what lies at the point the camera looks at, or the body vertex drawn nearest it (the
   * keyboard's grab); says whether it did.
   */
  grabAtFocus() {
    if (!this.stage || this.tool) return false;
    const { camera, controls } = this.view;
    this.raycaster.set(camera.position, controls.target.clone().sub(camera.position).normalize());
    // A rope or a coil is thinner than the gaps the one ray passes through: then the body
    // vertex drawn nearest the centre.
    return this.grab() || this.grab(false, () => this.nearestToRay());
  }

  // The body vertex drawn nearest the centre of the picture (the raycaster's ray from the
  // camera), as pick() says a hit ({ body, hit }); null when none is in the picture's height.
  nearestToRay() {
    const { ray } = this.raycaster;
    const point = new THREE.Vector3();
    const { fov, zoom } = this.view.camera;
    const limit = (Math.tan(THREE.MathUtils.degToRad(fov / 2)) / zoom) ** 2;
    const originAlong = ray.origin.dot(ray.direction);
    let best = null;
    this.stage.bodies.forEach((_, body) => {
      this.deformPickMesh(body);
      const position = this.bodies[body].mesh.geometry.attributes.position;
      for (let index = 0; index < position.count; index++) {
        point.fromBufferAttribute(position, index);
        const along = point.dot(ray.direction) - originAlong;
        if (along <= 0) continue; // behind the camera
        const angle = ray.distanceSqToPoint(point) / (along * along); // tan² of the angle off the ray
        if (angle <= limit && (!best || angle < best.angle))
          best = { body, angle, hit: { index, point: point.clone() } };
      }
    });
    return best && { body: best.body, hit: best.hit };
  }

  // The vertex of the picked body's hit triangle nearest the hit (of points: the one hit), and
  // where it is drawn.
  nearestVertex({ body, hit }) {
    const position = this.bodies[body].mesh.geometry.attributes.position;
    const distance = (v) => new THREE.Vector3().fromBufferAttribute(position, v).distanceToSquared(hit.point);
    const vertex = hit.face
      ? [hit.face.a, hit.face.b, hit.face.c].reduce((a, b) => (distance(b) < distance(a) ? b : a))
      : hit.index;
    return { vertex, point: new THREE.Vector3().fromBufferAttribute(position, vertex) };
  }

  // The tool on the body under the raycaster's ray; says whether there was one.
  useTool() {
    if (this.stage.bodies.some((body) => !body.u)) return false;
    const picked = this.pick();
    if (picked?.body === undefined) return false;
    this.tool(picked.body, this.nearestVertex(picked).vertex);
    return true;
  }

  // Grabs the nearest thing on the raycaster's ray (with obstaclesOnly, the nearest obstacle;
  // `choose` may choose otherwise); says whether it did.
  grab(obstaclesOnly = false, choose = () => this.pick(obstaclesOnly)) {
    if (this.held || this.stage.bodies.some((body) => !body.u)) return false;
    const picked = choose();
    if (!picked) return false;
    this.view.controls.enabled = false;
    let grabbed = picked.hit.point;
    if (picked.obstacle) {
      this.held = { obstacle: picked.obstacle, grabbed, startOffset: picked.obstacle.offset.clone() };
    } else {
      const { vertex, point } = this.nearestVertex(picked);
      grabbed = point;
      this.held = { body: picked.body };
      this.actions.grab(picked.body, vertex, grabbed).catch(this.onError);
    }
    this.held.target = grabbed.clone();
    this.plane.setFromNormalAndCoplanarPoint(
      this.view.camera.getWorldDirection(new THREE.Vector3()),
      grabbed,
    );
    this.onDrag(true);
    return true;
  }

  get holding() {
    return this.held !== null;
  }

  move(event) {
    if (event.pointerId !== this.pointer) return;
    const target = this.ray(event).intersectPlane(this.plane, new THREE.Vector3());
    if (target) this.pullTo(target);
  }

  /** Moves the hand of what is held by offset (a THREE.Vector3, world). */
  pullBy(offset) {
    if (this.held) this.pullTo(this.held.target.clone().add(offset));
  }

  // The hand goes to target: a body's spring pulls its grabbed vertex there; an obstacle moves
  // by as much as the hand did since the grab.
  pullTo(target) {
    const { obstacle, grabbed, startOffset } = this.held;
    this.held.target = target;
    const request = obstacle
      ? this.actions.moveObstacle(obstacle.index, startOffset.clone().add(target).sub(grabbed))
      : this.actions.pull(target);
    request.catch(this.onError);
  }

  release(event) {
    if (event.pointerId !== this.pointer) return;
    this.pointer = null;
    this.letGo();
  }

  /** Lets go of what is held (a body's spring goes; an obstacle stays where it was moved). */
  letGo() {
    if (!this.held) return;
    this.view.controls.enabled = true;
    if (!this.held.obstacle) this.actions.release().catch(this.onError);
    this.held = null;
    this.onDrag(false);
  }
}
