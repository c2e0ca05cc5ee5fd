// Meshes the bake tests make themselves, as users write them: tet meshes of a box of cubes
// (MEDIT, TetGen) and surfaces (OBJ, STL). Shared by tests/wasm/bake.test.js and
// tests/browser/your-model.test.js.

/** A box of nx x ny x nz cubes of `size` metres, each cut into 6 positively oriented tets. */
export function gridTets(nx, ny, nz, size) {
  const index = (i, j, k) => i + (nx + 1) * (j + (ny + 1) * k);
  const vertices = [];
  for (let k = 0; k <= nz; ++k)
    for (let j = 0; j <= ny; ++j) for (let i = 0; i <= nx; ++i) vertices.push([i * size, j * size, k * size]);
  const volume = ([a, b, c, d]) => {
    const [p, q, r] = [b, c, d].map((v) => vertices[v].map((x, e) => x - vertices[a][e]));
    return (
      p[0] * (q[1] * r[2] - q[2] * r[1]) -
      p[1] * (q[0] * r[2] - q[2] * r[0]) +
      p[2] * (q[0] * r[1] - q[1] * r[0])
    );
  };
  const kuhn = [
    [0, 1, 3, 7],
    [0, 3, 2, 7],
    [0, 2, 6, 7],
    [0, 6, 4, 7],
    [0, 4, 5, 7],
    [0, 5, 1, 7],
  ];
  const tets = [];
  for (let k = 0; k < nz; ++k)
    for (let j = 0; j < ny; ++j)
      for (let i = 0; i < nx; ++i) {
        const corner = (bits) => index(i + (bits & 1), j + ((bits >> 1) & 1), k + ((bits >> 2) & 1));
        for (const tet of kuhn) {
          const t = tet.map(corner);
          tets.push(volume(t) > 0 ? t : [t[1], t[0], t[2], t[3]]);
        }
      }
  return { vertices, tets };
}

export const medit = ({ vertices, tets }) =>
  [
    'MeshVersionFormatted 1',
    'Dimension 3',
    'Vertices',
    vertices.length,
    ...vertices.map((v) => `${v.join(' ')} 0`),
    'Tetrahedra',
    tets.length,
    ...tets.map((t) => `${t.map((v) => v + 1).join(' ')} 0`),
    'End',
    '',
  ].join('\n');

export const tetgen = ({ vertices, tets }) => ({
  node: [`${vertices.length} 3 0 0`, ...vertices.map((v, i) => `${i} ${v.join(' ')}`), ''].join('\n'),
  ele: [`${tets.length} 4 0`, ...tets.map((t, i) => `${i} ${t.join(' ')}`), ''].join('\n'),
});

/** The OBJ's triangles as an ASCII STL (a triangle soup: the reader welds its vertices). */
export function objToStl(text) {
  const vertices = [];
  const facets = [];
  for (const line of text.split('\n')) {
    const [kind, ...rest] = line.trim().split(/\s+/);
    if (kind === 'v') vertices.push(rest.slice(0, 3).join(' '));
    if (kind === 'f') {
      const ids = rest.map((token) => Number(token.split('/')[0]) - 1);
      for (let k = 1; k + 1 < ids.length; ++k)
        facets.push(
          `facet normal 0 0 0\nouter loop\n${[ids[0], ids[k], ids[k + 1]].map((v) => `vertex ${vertices[v]}`).join('\n')}\nendloop\nendfacet`,
        );
    }
  }
  return `solid bunny\n${facets.join('\n')}\nendsolid bunny\n`;
}

/** A closed box surface, w x h x d metres, as OBJ text (outward-facing triangles). */
export function boxObj([w, h, d]) {
  const v = [];
  for (const z of [0, d]) for (const y of [0, h]) for (const x of [0, w]) v.push(`v ${x} ${y} ${z}`);
  const quads = [
    [1, 3, 4, 2],
    [5, 6, 8, 7],
    [1, 2, 6, 5],
    [3, 7, 8, 4],
    [1, 5, 7, 3],
    [2, 4, 8, 6],
  ];
  const faces = quads.flatMap(([a, b, c, e]) => [`f ${a} ${b} ${c}`, `f ${a} ${c} ${e}`]);
  return [...v, ...faces, ''].join('\n');
}

/**
 * A closed box, w x h x d metres, as a glTF 2.0 scene: each face its own 4 vertices (as
 * exporters split them at the edges, where the normals change) and 16-bit indices (indexed:
 * false, every triangle its own 3 vertices instead), one node placing it by `translation` and
 * `scale`, under a parent node scaled by `parentScale` if given. binary: a .glb (Uint8Array);
 * else a .gltf (JSON text) with its buffer in a data URI.
 */
export function boxGltf(
  [w, h, d],
  { translation = [0, 0, 0], scale = [1, 1, 1], parentScale, indexed = true, binary = false } = {},
) {
  // Outward faces as corner lists, counter-clockwise seen from outside.
  const faces = [
    [
      [0, 0, 0],
      [0, 1, 0],
      [1, 1, 0],
      [1, 0, 0],
    ],
    [
      [0, 0, 1],
      [1, 0, 1],
      [1, 1, 1],
      [0, 1, 1],
    ],
    [
      [0, 0, 0],
      [1, 0, 0],
      [1, 0, 1],
      [0, 0, 1],
    ],
    [
      [0, 1, 0],
      [0, 1, 1],
      [1, 1, 1],
      [1, 1, 0],
    ],
    [
      [0, 0, 0],
      [0, 0, 1],
      [0, 1, 1],
      [0, 1, 0],
    ],
    [
      [1, 0, 0],
      [1, 1, 0],
      [1, 1, 1],
      [1, 0, 1],
    ],
  ];
  const corners = faces.flat().map(([x, y, z]) => [x * w, y * h, z * d]);
  const order = faces.flatMap((_, f) => [0, 1, 2, 0, 2, 3].map((k) => 4 * f + k));
  const positions = new Float32Array((indexed ? corners : order.map((v) => corners[v])).flat());
  const indices = new Uint16Array(indexed ? order : []);
  const bytes = new Uint8Array(positions.byteLength + indices.byteLength);
  bytes.set(new Uint8Array(positions.buffer), 0);
  bytes.set(new Uint8Array(indices.buffer), positions.byteLength);
  const json = {
    asset: { version: '2.0', generator: 'smfem tests' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: parentScale
      ? [
          { children: [1], scale: parentScale },
          { mesh: 0, translation, scale },
        ]
      : [{ mesh: 0, translation, scale }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, ...(indexed && { indices: 1 }) }] }],
    buffers: [
      binary
        ? { byteLength: bytes.byteLength }
        : {
            byteLength: bytes.byteLength,
            uri: `data:application/octet-stream;base64,${Buffer.from(bytes).toString('base64')}`,
          },
    ],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: positions.byteLength, target: 34962 },
      ...(indexed
        ? [{ buffer: 0, byteOffset: positions.byteLength, byteLength: indices.byteLength, target: 34963 }]
        : []),
    ],
    accessors: [
      {
        bufferView: 0,
        componentType: 5126,
        count: positions.length / 3,
        type: 'VEC3',
        min: [0, 0, 0],
        max: [w, h, d],
      },
      ...(indexed ? [{ bufferView: 1, componentType: 5123, count: 36, type: 'SCALAR' }] : []),
    ],
  };
  if (!binary) return JSON.stringify(json);
  // GLB: a 12-byte header, then a JSON chunk and a BIN chunk, each padded to 4 bytes.
  const padded = (chunk, fill) => {
    const out = new Uint8Array(Math.ceil(chunk.length / 4) * 4).fill(fill);
    out.set(chunk);
    return out;
  };
  const text = padded(new TextEncoder().encode(JSON.stringify(json)), 0x20);
  const bin = padded(bytes, 0);
  const glb = new Uint8Array(12 + 8 + text.length + 8 + bin.length);
  const view = new DataView(glb.buffer);
  view.setUint32(0, 0x46546c67, true); // 'glTF'
  view.setUint32(4, 2, true);
  view.setUint32(8, glb.length, true);
  view.setUint32(12, text.length, true);
  view.setUint32(16, 0x4e4f534a, true); // 'JSON'
  glb.set(text, 20);
  view.setUint32(20 + text.length, bin.length, true);
  view.setUint32(24 + text.length, 0x004e4942, true); // 'BIN'
  glb.set(bin, 28 + text.length);
  return glb;
}
