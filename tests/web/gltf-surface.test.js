// glTF scenes as the page's bake takes them (web/src/bake/gltfSurface.js, three.js's loader),
// under Node: a .glb becomes a binary STL of its triangles, placed by its node's transform and
// facing out (a mirroring node turns them back); a file that is not glTF is refused naming it.
// (A .gltf's buffers are fetched by the loader with the browser's ProgressEvent, which Node
// lacks: tests/browser/your-model.test.js bakes one, and refuses one whose buffer is missing.)
import { describe, expect, it } from 'vitest';
import { gltfAsStl } from '../../web/src/bake/gltfSurface.js';
import { boxGltf } from '../wasm/test_meshes.js';

// The STL's triangles as corner triples, and its signed volume (positive: facing out).
function readStl(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(80, true);
  expect(bytes.byteLength).toBe(84 + 50 * count);
  const triangles = [];
  let volume = 0;
  for (let t = 0; t < count; ++t) {
    const corner = (k) => [0, 1, 2].map((i) => view.getFloat32(84 + 50 * t + 12 + 12 * k + 4 * i, true));
    const [a, b, c] = [0, 1, 2].map(corner);
    triangles.push([a, b, c]);
    volume +=
      (a[0] * (b[1] * c[2] - b[2] * c[1]) -
        a[1] * (b[0] * c[2] - b[2] * c[0]) +
        a[2] * (b[0] * c[1] - b[1] * c[0])) /
      6;
  }
  return { triangles, volume };
}

describe('glTF scenes for the bake', () => {
  it('box.glb: its triangles, placed by the node, as a binary STL', async () => {
    const bytes = boxGltf([0.3, 0.1, 0.2], { translation: [1, 2, 3], scale: [2, 2, 2], binary: true });
    const scene = { name: 'box.glb', bytes };
    const stl = await gltfAsStl(scene, [scene], 'box.stl');
    expect(stl.name).toBe('box.stl');
    const { triangles, volume } = readStl(stl.bytes);
    expect(triangles.length).toBe(12);
    const xs = triangles.flat().map((corner) => corner[0]);
    const ys = triangles.flat().map((corner) => corner[1]);
    expect([Math.min(...xs), Math.max(...xs)]).toEqual([1, Math.fround(1.6)]);
    expect([Math.min(...ys), Math.max(...ys)]).toEqual([2, Math.fround(2.2)]);
    expect(volume).toBeCloseTo(0.6 * 0.2 * 0.4, 6);
  });

  it('keeps the triangles facing out under a mirroring node, and refuses a file that is not glTF', async () => {
    for (const options of [
      { scale: [-1, 1, 1] },
      // Unindexed triangles, mirrored and moved by a parent node.
      { indexed: false, translation: [1, 0, 0], parentScale: [2, 2, -2] },
    ]) {
      const bytes = boxGltf([0.3, 0.1, 0.2], { ...options, binary: true });
      const scene = { name: 'm.glb', bytes };
      const { triangles, volume } = readStl((await gltfAsStl(scene, [scene], 'm.stl')).bytes);
      expect(triangles.length).toBe(12);
      const scaled = options.parentScale ? 8 : 1;
      expect(volume).toBeCloseTo(scaled * 0.3 * 0.1 * 0.2, 6);
      const xs = triangles.flat().map((corner) => corner[0]);
      // The parent scales the child's translation too: x from 2 to 2.6.
      if (options.parentScale) expect([Math.min(...xs), Math.max(...xs)]).toEqual([2, Math.fround(2.6)]);
    }
    const notGltf = { name: 'x.glb', bytes: new TextEncoder().encode('hello') };
    await expect(gltfAsStl(notGltf, [notGltf], 'x.stl')).rejects.toThrow('x.glb: not read as glTF');
  });
});
