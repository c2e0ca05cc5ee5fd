// "Colour: edge strain" of a shell or a rod (ThinStage): each vertex, and each rod segment,
// painted by the strain |l / L - 1| of its edges (l drawn, L at rest; a vertex takes the largest
// of the edges it ends), on a log scale from strainScale.low (the ramp's blue end, and below) to
// strainScale.high (red, and above). The scale is the same on every scene and solver, so side by
// side a stiff cloth's MFEM and FEM compare at a glance. The solver's own maxStrain (the plots)
// is the largest of these over the body.
import { rampColour } from '../ui/colourRamp.js';

export const strainScale = { low: 1e-5, high: 1e-1 };

const edgeKey = (a, b) => `${Math.min(a, b)} ${Math.max(a, b)}`;

/** The edges of a shape's triangles and rod segments (flat vertex-id arrays), once each. */
export function meshEdges(triangles, segments) {
  const seen = new Set();
  const ends = [];
  const add = (a, b) => {
    const key = edgeKey(a, b);
    if (seen.has(key)) return;
    seen.add(key);
    ends.push(a, b);
  };
  for (let t = 0; t < triangles.length; t += 3) {
    for (let k = 0; k < 3; k++) add(triangles[t + k], triangles[t + ((k + 1) % 3)]);
  }
  for (let e = 0; e < segments.length; e += 2) add(segments[e], segments[e + 1]);
  return Uint32Array.from(ends);
}

// The length of edge e of ends at positions.
function edgeLength(ends, positions, e) {
  const a = 3 * ends[2 * e],
    b = 3 * ends[2 * e + 1];
  return Math.hypot(
    positions[b] - positions[a],
    positions[b + 1] - positions[a + 1],
    positions[b + 2] - positions[a + 2],
  );
}

/** Each edge's length (ends: two vertex ids per edge) at positions (x y z per vertex). */
export function edgeLengths(ends, positions) {
  return Float64Array.from({ length: ends.length / 2 }, (_, e) => edgeLength(ends, positions, e));
}

/** Where each of `segments` (two vertex ids each) is among `ends` (meshEdges of them and more). */
export function edgeIndices(ends, segments) {
  const index = new Map();
  for (let e = 0; e < ends.length; e += 2) index.set(edgeKey(ends[e], ends[e + 1]), e / 2);
  return Uint32Array.from({ length: segments.length / 2 }, (_, s) =>
    index.get(edgeKey(segments[2 * s], segments[2 * s + 1])),
  );
}

/** Each edge's strain |l / L - 1| at `drawn`, L its rest length, into out (every frame: no garbage). */
export function edgeStrains(ends, restLengths, drawn, out = new Float32Array(restLengths.length)) {
  for (let e = 0; e < restLengths.length; e++) {
    out[e] = Math.abs(edgeLength(ends, drawn, e) / restLengths[e] - 1);
  }
  return out;
}

/** Each vertex's largest strain over the edges it ends (0 where it ends none), into out. */
export function vertexStrains(ends, strains, vertexCount, out = new Float32Array(vertexCount)) {
  out.fill(0);
  for (let e = 0; e < strains.length; e++) {
    const a = ends[2 * e],
      b = ends[2 * e + 1];
    out[a] = Math.max(out[a], strains[e]);
    out[b] = Math.max(out[b], strains[e]);
  }
  return out;
}

/** Writes r g b of each strain's colour on the scale into colours (3 per strain). */
export function paintStrains(strains, colours) {
  const { low, high } = strainScale;
  const span = Math.log10(high / low);
  const colour = rampColour(0);
  for (let i = 0; i < strains.length; i++) {
    rampColour(Math.log10(Math.max(strains[i], low) / low) / span, colour);
    colours[3 * i] = colour.r;
    colours[3 * i + 1] = colour.g;
    colours[3 * i + 2] = colour.b;
  }
  return colours;
}
