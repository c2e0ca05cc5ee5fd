import * as THREE from 'three';

// Where the camera stands to show a box whole: looking at the box's centre from the front, right
// and above, or along a scene's own camera (its target and direction, never nearer than it
// says), at the distance at which all eight corners fall inside the picture with a margin left
// for the motion.
const defaultDirection = new THREE.Vector3(1.6, 1.1, 2.2).normalize();
const margin = 0.15; // of the picture's half width and half height

/**
 * box: THREE.Box3; camera: the scene's { position, target } or null; tanHalf: { x, y }, the
 * tangents of the half angles the picture spans across and up from its centre. Returns
 * { position, target } (THREE.Vector3).
 */
export function framedCamera(box, camera, tanHalf) {
  const target = camera ? new THREE.Vector3(...camera.target) : box.getCenter(new THREE.Vector3());
  const offset = camera ? new THREE.Vector3(...camera.position).sub(target) : new THREE.Vector3();
  const back = offset.lengthSq() > 0 ? offset.clone().normalize() : defaultDirection.clone();
  const right = new THREE.Vector3(0, 1, 0).cross(back);
  if (right.lengthSq() < 1e-12) right.set(1, 0, 0); // looking straight down or up
  right.normalize();
  const up = back.clone().cross(right);
  let distance = offset.length();
  const corner = new THREE.Vector3();
  for (let k = 0; k < 8; k++) {
    corner.set(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z);
    corner.sub(target);
    const toward = corner.dot(back); // how far the corner stands out towards the camera
    const across = Math.abs(corner.dot(right)) / (tanHalf.x * (1 - margin));
    const upward = Math.abs(corner.dot(up)) / (tanHalf.y * (1 - margin));
    distance = Math.max(distance, toward + across, toward + upward);
  }
  return { position: target.clone().addScaledVector(back, distance), target };
}

// How far the framed box may widen to keep the bodies in the picture, in times its start's
// size; beyond, the camera follows them (boxKeepingInView).
const maxWidening = 4;

/**
 * The box to frame so that `drawn` (where the bodies are drawn now) stays in the picture, given
 * the box framed now and `home`, the one the scene was framed on (THREE.Box3 each); null where
 * the framed box already holds it. The framed box widens to take the bodies in, up to
 * maxWidening times home's size; beyond, it is a box of home's size (or the bodies', if larger)
 * about the bodies: a body falling with nothing below it stays as large as it started.
 */
export function boxKeepingInView(framed, home, drawn) {
  if (drawn.isEmpty() || framed.containsBox(drawn)) return null;
  const widened = framed.clone().union(drawn);
  const size = home.getSize(new THREE.Vector3());
  if (widened.getSize(new THREE.Vector3()).length() <= maxWidening * size.length()) return widened;
  return new THREE.Box3().setFromCenterAndSize(
    drawn.getCenter(new THREE.Vector3()),
    drawn.getSize(new THREE.Vector3()).max(size),
  );
}
