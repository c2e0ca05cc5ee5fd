// The page's one colour ramp for values on a scale (low blue, through green and yellow, to high
// red): the materials' moduli and the thin bodies' strain. Interpolated in sRGB.
import * as THREE from 'three';

const stops = ['#4dabf7', '#69db7c', '#ffd43b', '#ff922b', '#e03131'].map((hex) => new THREE.Color(hex));

/** The colour at t in [0, 1] (clamped) into `out` (a new THREE.Color if none). */
export function rampColour(t, out = new THREE.Color()) {
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  return out.copy(stops[i]).lerp(stops[i + 1], x - i);
}

/** A CSS gradient of the ramp from left (0) to right (1), for a legend's bar. */
export function rampGradient() {
  return `linear-gradient(to right, ${stops.map((c) => `#${c.getHexString()}`).join(', ')})`;
}
