// The page draws light where the browser renders without a graphics card, and fully elsewhere.
import { describe, expect, it } from 'vitest';
import { renderQuality } from '../../web/src/render/renderQuality.js';

describe('renderQuality', () => {
  it.each([
    'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
    'llvmpipe (LLVM 15.0.6, 256 bits)',
    'ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0, D3D11)',
  ])('draws light on the software renderer %s', (name) => {
    expect(renderQuality(name, 2)).toEqual({
      kind: 'light',
      antialias: false,
      shadows: false,
      pixelRatio: 0.75,
    });
  });

  it.each([
    ['ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)', 1, 1],
    ['Apple M1', 2, 2],
    ['Mali-G78', 3, 2],
    [null, 1.5, 1.5],
  ])('draws fully on %s, at the device pixel ratio %d capped at 2', (name, device, ratio) => {
    expect(renderQuality(name, device)).toEqual({
      kind: 'full',
      antialias: true,
      shadows: true,
      pixelRatio: ratio,
    });
  });
});
