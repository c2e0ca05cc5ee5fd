// A glTF scene (a .gltf with the buffers it names, or a .glb) as the bake takes it, read by
// three.js's GLTFLoader: the triangles of its meshes, placed by their nodes' transforms (glTF's
// unit is the metre), as a binary STL, whose reader welds corners at equal positions (glTF splits
// vertices where normals or texture coordinates change, which would leave seams open).
import { LoadingManager, Vector3 } from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const fileName = (path) => decodeURIComponent(path.split(/[\\/]/).pop());

/**
 * The file `name` a bake reads for the glTF scene `scene` ({ name, bytes }), picked with `files`
 * (the buffers and images it names, by file name): an STL of its triangles, { name, bytes }.
 */
export async function gltfAsStl(scene, files, name) {
  return { name, bytes: binaryStl(await gltfCorners(scene, files)) };
}

// x, y, z of every triangle's corners, three corners a triangle, in the scene's coordinates.
async function gltfCorners(scene, files) {
  const urls = new Map(
    files.map(({ name, bytes }) => [fileName(name), URL.createObjectURL(new Blob([bytes]))]),
  );
  const missing = new Set();
  const manager = new LoadingManager();
  // The files the scene names (buffers, images) are those picked with it, by name; it never
  // reaches for the page's server.
  manager.setURLModifier((url) => {
    if (/^(data|blob):/.test(url)) return url;
    const found = urls.get(fileName(url));
    if (found) return found;
    missing.add(fileName(url));
    throw new Error(`${fileName(url)} was not picked`);
  });
  let gltf;
  try {
    const { buffer, byteOffset, byteLength } = scene.bytes;
    gltf = await new GLTFLoader(manager).parseAsync(buffer.slice(byteOffset, byteOffset + byteLength), '');
  } catch (error) {
    const why = missing.size
      ? `it needs ${[...missing].join(', ')}: pick them with it`
      : String(error?.message ?? error).replace('THREE.GLTFLoader: ', '');
    throw new Error(`${scene.name}: not read as glTF (${why})`);
  } finally {
    for (const url of urls.values()) URL.revokeObjectURL(url);
  }
  const corners = [];
  const at = new Vector3();
  gltf.scene.updateMatrixWorld(true);
  gltf.scene.traverse((object) => {
    if (!object.isMesh) return; // points and lines enclose nothing
    const { index, attributes } = object.geometry;
    const count = index ? index.count : attributes.position.count;
    // A mirroring transform turns the triangles inside out: their corners go the other way.
    const order = object.matrixWorld.determinant() < 0 ? [0, 2, 1] : [0, 1, 2];
    for (let first = 0; first + 2 < count; first += 3) {
      for (const k of order) {
        const vertex = index ? index.getX(first + k) : first + k;
        at.fromBufferAttribute(attributes.position, vertex).applyMatrix4(object.matrixWorld);
        corners.push(at.x, at.y, at.z);
      }
    }
  });
  if (!corners.length)
    throw new Error(`${scene.name}: its scene has no triangles (only points, lines or nothing)`);
  return corners;
}

// A binary STL: an 80-byte header, the triangle count, and per triangle a normal (left zero:
// the bake orients by the corners), three corners and two spare bytes.
function binaryStl(corners) {
  const triangles = corners.length / 9;
  const view = new DataView(new ArrayBuffer(84 + 50 * triangles));
  view.setUint32(80, triangles, true);
  for (let t = 0; t < triangles; ++t) {
    for (let k = 0; k < 9; ++k) view.setFloat32(84 + 50 * t + 12 + 4 * k, corners[9 * t + k], true);
  }
  return new Uint8Array(view.buffer);
}
