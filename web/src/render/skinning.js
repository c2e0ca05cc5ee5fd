// Linear blend skinning by the subspace's modes, in the vertex shader (assets/FORMAT.md: the
// basis rows b_v; Subspace MFEM, Trusty et al. 2023, §4).
//
// The reduced coordinates u (12m floats, u = [u_0; u_1; u_2], u_d[4i + k] = (A_i)_dk) hold one
// 3x4 affine matrix A_i per mode i. A render vertex with rest position X and weights w_i moves
// to x = X + sum_i w_i A_i [X; 1]. Its normal follows the blended linear part
// J = I + sum_i w_i A_i[:, 0:3] (weight gradients neglected, as in skinning generally) through
// the cofactor of J.
//
// Weights live in a float texture, ceil(m / 4) RGBA texels per vertex, read by gl_VertexID;
// the affine rows live in a uniform array, row d of A_i at index 3 i + d.

/** Texels per vertex for m modes. */
export function texelsPerVertex(modeCount) {
  return Math.ceil(modeCount / 4);
}

/** The weight texture's layout: width (at most 4096 texels) and height for nv vertices. */
export function weightTextureSize(vertexCount, modeCount) {
  const texels = vertexCount * texelsPerVertex(modeCount);
  const width = Math.min(4096, Math.max(1, texels));
  return { width, height: Math.max(1, Math.ceil(texels / width)) };
}

/**
 * Packs nv x m row-major weights into RGBA texels (zero-padded to a multiple of 4 modes and to
 * the texture's full size).
 */
export function packWeights(weights, vertexCount, modeCount) {
  const perVertex = texelsPerVertex(modeCount);
  const { width, height } = weightTextureSize(vertexCount, modeCount);
  const packed = new Float32Array(width * height * 4);
  for (let v = 0; v < vertexCount; v++) {
    packed.set(weights.subarray(v * modeCount, (v + 1) * modeCount), v * perVertex * 4);
  }
  return packed;
}

/** Rewrites u (12m) as the shader's rows: rows[4 (3 i + d) + k] = u[4m d + 4i + k]. */
export function affineRows(u, modeCount, rows = new Float32Array(12 * modeCount)) {
  const n = 4 * modeCount;
  for (let i = 0; i < modeCount; i++) {
    for (let d = 0; d < 3; d++) {
      for (let k = 0; k < 4; k++) rows[4 * (3 * i + d) + k] = u[n * d + 4 * i + k];
    }
  }
  return rows;
}

/** CPU reference of the shader's position: X + sum_i w_i A_i [X; 1] for one vertex. */
export function skinVertex(rest, weights, u, modeCount, out = new Float64Array(3)) {
  const n = 4 * modeCount;
  const homogeneous = [rest[0], rest[1], rest[2], 1];
  for (let d = 0; d < 3; d++) {
    let offset = 0;
    for (let i = 0; i < modeCount; i++) {
      let row = 0;
      for (let k = 0; k < 4; k++) row += u[n * d + 4 * i + k] * homogeneous[k];
      offset += weights[i] * row;
    }
    out[d] = rest[d] + offset;
  }
  return out;
}

/**
 * skinVertex for `count` points (rest: count x 3, weights: count x m) with a callback per
 * point: visit(index, x, y, z). The CPU path for the few points the page moves itself.
 */
export function skinPoints(rest, weights, u, modeCount, count, visit) {
  const moved = new Float64Array(3);
  for (let p = 0; p < count; p++) {
    skinVertex(
      rest.subarray(3 * p, 3 * p + 3),
      weights.subarray(modeCount * p, modeCount * (p + 1)),
      u,
      modeCount,
      moved,
    );
    visit(p, moved[0], moved[1], moved[2]);
  }
}

const declarations = /* glsl */ `
uniform highp sampler2D smfemWeights;
uniform vec4 smfemRows[3 * SMFEM_MODES];
#ifdef SMFEM_DENT
// Local deformations' dent at this vertex and the rows of its gradient (SkinnedSurface.setDent).
attribute vec3 smfemDent;
attribute vec3 smfemDentGradient0;
attribute vec3 smfemDentGradient1;
attribute vec3 smfemDentGradient2;
#endif

// Sum over modes of w_i times rows d = 0, 1, 2 of A_i.
void smfemBlend(out vec4 r0, out vec4 r1, out vec4 r2) {
  r0 = vec4(0.0); r1 = vec4(0.0); r2 = vec4(0.0);
  int width = textureSize(smfemWeights, 0).x;
  for (int t = 0; t < SMFEM_TEXELS; t++) {
    int texel = gl_VertexID * SMFEM_TEXELS + t;
    vec4 w = texelFetch(smfemWeights, ivec2(texel % width, texel / width), 0);
    for (int c = 0; c < 4; c++) {
      int i = 4 * t + c;
      if (i >= SMFEM_MODES) break;
      r0 += w[c] * smfemRows[3 * i];
      r1 += w[c] * smfemRows[3 * i + 1];
      r2 += w[c] * smfemRows[3 * i + 2];
    }
  }
}
`;

const normalChunk = /* glsl */ `
vec4 smfemR0, smfemR1, smfemR2;
smfemBlend(smfemR0, smfemR1, smfemR2);
// Rows of J = I + blended linear part + the dent's gradient; J^-T n is the cofactor rows dotted
// with n (up to det J).
vec3 smfemJ0 = vec3(1.0, 0.0, 0.0) + smfemR0.xyz;
vec3 smfemJ1 = vec3(0.0, 1.0, 0.0) + smfemR1.xyz;
vec3 smfemJ2 = vec3(0.0, 0.0, 1.0) + smfemR2.xyz;
#ifdef SMFEM_DENT
smfemJ0 += smfemDentGradient0;
smfemJ1 += smfemDentGradient1;
smfemJ2 += smfemDentGradient2;
#endif
vec3 objectNormal = vec3(dot(cross(smfemJ1, smfemJ2), normal), dot(cross(smfemJ2, smfemJ0), normal),
                         dot(cross(smfemJ0, smfemJ1), normal));
#ifdef USE_TANGENT
vec3 objectTangent = vec3(tangent.xyz);
#endif
`;

const positionChunk = /* glsl */ `
#ifndef SMFEM_BLENDED
vec4 smfemR0, smfemR1, smfemR2;
smfemBlend(smfemR0, smfemR1, smfemR2);
#endif
vec4 smfemX = vec4(position, 1.0);
vec3 transformed = position + vec3(dot(smfemR0, smfemX), dot(smfemR1, smfemX), dot(smfemR2, smfemX));
#ifdef SMFEM_DENT
transformed += smfemDent;
#endif
`;

// Colouring by the weight of one mode (a teaching view): the vertex passes w_j on, the fragment
// maps it through a diverging blue-grey-red scale, w_j / max_v |w_j| in [-1, 1].
const modeWeightDeclarations = /* glsl */ `
uniform int smfemColourMode;  // j, or -1 for the material's own colour
varying float smfemModeWeight;
`;

const modeWeightVertexChunk = /* glsl */ `
if (smfemColourMode >= 0) {
  int texel = gl_VertexID * SMFEM_TEXELS + smfemColourMode / 4;
  int width = textureSize(smfemWeights, 0).x;
  smfemModeWeight = texelFetch(smfemWeights, ivec2(texel % width, texel / width), 0)[smfemColourMode % 4];
}
`;

const modeWeightFragmentChunk = /* glsl */ `
#include <color_fragment>
if (smfemColourMode >= 0) {
  float t = clamp(smfemModeWeight * smfemModeScale, -1.0, 1.0);
  vec3 neutral = vec3(0.86);
  diffuseColor.rgb = t < 0.0 ? mix(neutral, vec3(0.23, 0.30, 0.75), -t)
                             : mix(neutral, vec3(0.71, 0.02, 0.15), t);
}
`;

/** 1 / max_v |w_vj|: the scale that maps mode j's weights onto [-1, 1] (0 for a null mode). */
export function modeWeightScale(weights, vertexCount, modeCount, mode) {
  let largest = 0;
  for (let v = 0; v < vertexCount; v++) largest = Math.max(largest, Math.abs(weights[v * modeCount + mode]));
  return largest > 0 ? 1 / largest : 0;
}

/**
 * Makes a built-in three.js material (standard, depth, ...) skin its vertices by the shared
 * uniforms { smfemWeights, smfemRows }. Works for materials whose vertex shader computes the
 * normal, if at all, before the position (all of three's lit and depth materials do); the blend
 * then runs once. With `colourByMode` (lit materials), the uniforms { smfemColourMode,
 * smfemModeScale } can also paint the surface by one mode's weight. With `dent` (a body with local
 * deformations), the geometry's attributes smfemDent and smfemDentGradient0-2 move the vertex and
 * turn its normal.
 */
export function addSkinning(material, uniforms, modeCount, { colourByMode = false, dent = false } = {}) {
  const texels = texelsPerVertex(modeCount);
  material.defines = {
    ...material.defines,
    SMFEM_MODES: modeCount,
    SMFEM_TEXELS: texels,
    ...(dent && { SMFEM_DENT: 1 }),
  };
  material.onBeforeCompile = (shader) => {
    Object.assign(shader.uniforms, uniforms);
    shader.vertexShader = shader.vertexShader
      .replace('void main() {', `${declarations}\nvoid main() {`)
      .replace('#include <beginnormal_vertex>', `${normalChunk}\n#define SMFEM_BLENDED`)
      .replace('#include <begin_vertex>', positionChunk);
    if (!colourByMode) return;
    shader.vertexShader = shader.vertexShader
      .replace('void main() {', `${modeWeightDeclarations}\nvoid main() {`)
      .replace(/}\s*$/, `${modeWeightVertexChunk}\n}`);
    shader.fragmentShader = shader.fragmentShader
      .replace('void main() {', `${modeWeightDeclarations}\nuniform float smfemModeScale;\nvoid main() {`)
      .replace('#include <color_fragment>', modeWeightFragmentChunk);
  };
  material.customProgramCacheKey = () => `smfem-skinning-${modeCount}-${colourByMode}-${dent}`;
  return material;
}
