// The skinning layout the vertex shader reads, checked against the subspace's definition
// x_v,d = X_v,d + u_d . b_v with b_v[4i + k] = W_vi [X_v; 1]_k (assets/FORMAT.md).
import { describe, expect, it } from 'vitest';
import {
  affineRows,
  modeWeightScale,
  packWeights,
  skinVertex,
  texelsPerVertex,
  weightTextureSize,
} from '../../web/src/render/skinning.js';

function randomArray(length, seed) {
  let state = seed;
  return Float64Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  });
}

// x_d = X_d + sum_j u_d[j] b[j], straight from the definition.
function skinByBasis(rest, weights, u, m) {
  const b = new Float64Array(4 * m);
  for (let i = 0; i < m; i++) {
    for (let k = 0; k < 4; k++) b[4 * i + k] = weights[i] * (k < 3 ? rest[k] : 1);
  }
  return [0, 1, 2].map((d) => rest[d] + b.reduce((sum, bj, j) => sum + u[4 * m * d + j] * bj, 0));
}

describe('skinning layout', () => {
  it('packs ceil(m / 4) texels per vertex, zero-padded, in a texture at most 4096 wide', () => {
    expect(texelsPerVertex(1)).toBe(1);
    expect(texelsPerVertex(16)).toBe(4);
    expect(texelsPerVertex(17)).toBe(5);
    expect(weightTextureSize(10000, 16)).toEqual({ width: 4096, height: 10 });
    const weights = Float32Array.from({ length: 3 * 5 }, (_, i) => i + 1);
    const packed = packWeights(weights, 3, 5);
    expect(packed.length).toBe(3 * 2 * 4);
    expect(Array.from(packed.subarray(0, 8))).toEqual([1, 2, 3, 4, 5, 0, 0, 0]);
    expect(Array.from(packed.subarray(8, 16))).toEqual([6, 7, 8, 9, 10, 0, 0, 0]);
  });

  it('puts row d of mode i at index 3 i + d', () => {
    const m = 3;
    const u = Float32Array.from({ length: 12 * m }, (_, i) => i);
    const rows = affineRows(u, m);
    // Mode 1, row 2: u_2[4 + k] = u[2 * 12 + 4 + k].
    expect(Array.from(rows.subarray(4 * (3 * 1 + 2), 4 * (3 * 1 + 2) + 4))).toEqual([28, 29, 30, 31]);
  });

  it('moves a vertex as the reduced basis says', () => {
    const m = 5;
    for (let trial = 0; trial < 20; trial++) {
      const rest = randomArray(3, 7 + trial);
      const weights = randomArray(m, 100 + trial);
      const u = randomArray(12 * m, 1000 + trial);
      const expected = skinByBasis(rest, weights, u, m);
      const actual = skinVertex(rest, weights, u, m);
      for (let d = 0; d < 3; d++) expect(actual[d]).toBeCloseTo(expected[d], 12);
    }
  });

  it('translates the body when the constant mode carries a translation', () => {
    const m = 2;
    const u = new Float64Array(12 * m);
    // Mode 0 with weight 1 everywhere; its affine matrix translates by (1, 2, 3).
    [1, 2, 3].forEach((t, d) => (u[4 * m * d + 3] = t));
    expect(Array.from(skinVertex([0.5, -1, 2], [1, 0.3], u, m))).toEqual([1.5, 1, 5]);
  });
});

describe('colour by mode weight', () => {
  it('scales a mode by its largest weight magnitude, and a null mode by zero', () => {
    // 3 vertices x 2 modes, row-major.
    const weights = Float32Array.from([0.5, 0, -2, 0, 1, 0]);
    expect(modeWeightScale(weights, 3, 2, 0)).toBe(0.5);
    expect(modeWeightScale(weights, 3, 2, 1)).toBe(0);
  });
});
