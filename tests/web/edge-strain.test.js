// "Colour: edge strain" (web/src/render/edgeStrain.js, ThinStage): a shell's and a rod's edges
// once each, their strain |l / L - 1| where they are drawn, each vertex taking the largest of its
// edges', and the colours on the log scale: blue at 1e-5 and below, red at 1e-1 and above, in
// order between. The tubes (RodTubes) take a colour per segment and per joint.
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { RodTubes } from '../../web/src/render/RodTubes.js';
import {
  edgeIndices,
  edgeLengths,
  edgeStrains,
  meshEdges,
  paintStrains,
  strainScale,
  vertexStrains,
} from '../../web/src/render/edgeStrain.js';
import { rampColour } from '../../web/src/ui/colourRamp.js';

describe('edge strain', () => {
  // Two triangles sharing the edge 1-2, and a rod from vertex 3 to a vertex 4 of its own.
  const triangles = new Uint32Array([0, 1, 2, 2, 1, 3]);
  const rods = new Uint32Array([3, 4, 1, 2]);
  const rest = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0]);

  it('takes every edge of the triangles and the rods once', () => {
    const ends = meshEdges(triangles, rods);
    const keys = [];
    for (let e = 0; e < ends.length; e += 2) keys.push([ends[e], ends[e + 1]].sort().join('-'));
    expect(keys.sort()).toEqual(['0-1', '0-2', '1-2', '1-3', '2-3', '3-4']);
    expect(Array.from(edgeLengths(new Uint32Array([0, 3]), rest))).toEqual([Math.SQRT2]);
  });

  it("finds each rod segment among the edges, one a triangle's too, whichever way round", () => {
    const ends = meshEdges(triangles, rods);
    const segments = new Uint32Array([...rods, 2, 1]);
    const found = edgeIndices(ends, segments);
    expect(found).toHaveLength(3);
    found.forEach((e, s) => {
      const theirs = [segments[2 * s], segments[2 * s + 1]].sort();
      expect([ends[2 * e], ends[2 * e + 1]].sort()).toEqual(theirs);
    });
    expect(found[2]).toBe(found[1]); // 1-2 and 2-1: the triangles' shared edge
  });

  it("gives each edge its strain and each vertex the largest of its edges'", () => {
    const ends = meshEdges(triangles, rods);
    const lengths = edgeLengths(ends, rest);
    // Vertex 4 moved 1 cm further along the rod: only the rod's edge stretches, by 1 %.
    const drawn = Float32Array.from(rest);
    drawn[12] += 0.01;
    const strains = new Float32Array(lengths.length);
    expect(edgeStrains(ends, lengths, drawn, strains)).toBe(strains); // written where it is told
    const perVertex = vertexStrains(ends, strains, 5);
    expect(perVertex[4]).toBeCloseTo(0.01, 6);
    expect(perVertex[3]).toBeCloseTo(0.01, 6);
    for (const v of [0, 1, 2]) expect(perVertex[v]).toBeLessThan(1e-7);
    // Squeezed by 2 % towards vertex 0, vertex 1's edge to 0 is the largest there.
    drawn[3] = 0.98;
    const squeezed = vertexStrains(ends, edgeStrains(ends, lengths, drawn), 5);
    expect(squeezed[0]).toBeCloseTo(0.02, 6);
    expect(squeezed[1]).toBeCloseTo(Math.max(0.02, Math.abs(Math.hypot(0.98, 1) / Math.SQRT2 - 1)), 6);
  });

  it('paints strain on the log scale from blue to red, clamped at its ends', () => {
    const colours = paintStrains(
      new Float32Array([0, strainScale.low, 1e-3, strainScale.high, 1]),
      new Float32Array(15),
    );
    const colour = (i) => new THREE.Color().fromArray(colours, 3 * i);
    // (As stored: float32.)
    expect(colour(0).getHex()).toBe(rampColour(0).getHex());
    expect(colour(1).getHex()).toBe(rampColour(0).getHex());
    expect(colour(2).getHex()).toBe(rampColour(0.5).getHex()); // 1e-3: two decades of four
    expect(colour(3).getHex()).toBe(rampColour(1).getHex());
    expect(colour(4).getHex()).toBe(rampColour(1).getHex());
    expect(colour(0).b).toBeGreaterThan(colour(0).r);
    expect(colour(4).r).toBeGreaterThan(colour(4).b);
  });

  it('colours each tube and joint of a rod, white when unpainted', () => {
    const tubes = new RodTubes(
      new Uint32Array([0, 1, 1, 2]),
      new Float32Array([0.01, 0.01]),
      0,
      new THREE.MeshBasicMaterial(),
    );
    const colourOf = (mesh, i) => {
      const c = new THREE.Color();
      mesh.getColorAt(i, c);
      return c.getHex();
    };
    expect(colourOf(tubes.tubes, 1)).toBe(0xffffff);
    tubes.setColours(new Float32Array([1, 0, 0, 0, 0, 1]), new Float32Array([0, 1, 0, 0, 0, 1, 1, 1, 0]));
    expect(colourOf(tubes.tubes, 0)).toBe(0xff0000);
    expect(colourOf(tubes.tubes, 1)).toBe(0x0000ff);
    expect(colourOf(tubes.spheres, 2)).toBe(0xffff00); // the joint on vertex 2
    tubes.setColours(null, null);
    expect(colourOf(tubes.spheres, 0)).toBe(0xffffff);
    tubes.dispose();
  });
});
