// Reader of baked assets (.smfem, specified in assets/FORMAT.md) for the page and for Node
// tools. It applies the same checks, in the same order and with the same messages, as the
// C++ reader (wasm/src/smfem/asset/): a bad file gives an AssetError
//   "<source>: <location>: <problem>"
// and never a crash, a hang or a huge allocation. No dependencies.
import { crc32 } from './crc32.js';

const MAGIC = [0x89, 0x53, 0x4d, 0x46, 0x45, 0x4d, 0x0d, 0x0a];
const MAJOR_VERSION = 1;
const BYTE_ORDER_MARK = 0x01020304;
const DATA_ALIGNMENT = 16;
const MAX_RANK = 4;
const MAX_META_DEPTH = 64;
const FORMAT_NAME = 'smfem-asset';
const U64_MAX = (1n << 64n) - 1n;

// Header (64 bytes) and section table entry (80 bytes) field offsets.
const HEADER = {
  size: 64,
  major: 8,
  minor: 10,
  byteOrder: 12,
  sectionCount: 16,
  tableOffset: 20,
  entrySize: 24,
  tableCrc: 28,
  fileSize: 32,
  reserved: 40,
  reservedEnd: 60,
  headerCrc: 60,
};
const ENTRY = {
  size: 80,
  nameCapacity: 32,
  dtype: 32,
  rank: 34,
  shape: 36,
  dataCrc: 52,
  offset: 56,
  length: 64,
  reserved: 72,
};

const DTYPES = new Map([
  [1, { name: 'u8', size: 1, ArrayType: Uint8Array }],
  [2, { name: 'i32', size: 4, ArrayType: Int32Array }],
  [3, { name: 'u32', size: 4, ArrayType: Uint32Array }],
  [4, { name: 'f32', size: 4, ArrayType: Float32Array }],
  [5, { name: 'f64', size: 8, ArrayType: Float64Array }],
  [6, { name: 'utf8', size: 1, ArrayType: Uint8Array }],
]);
const DTYPE_BY_NAME = Object.fromEntries([...DTYPES.values()].map((d) => [d.name, d]));

const HOST_IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Thrown for every problem with an asset. */
export class AssetError extends Error {
  /**
   * @param {string} source file name (or the name given to readAsset)
   * @param {string} location "header", "section table", "section table entry <i>",
   *   "padding" or "section '<name>'"
   * @param {string} problem
   * @param {string} [section] the section's name when the error is about one, else ''
   */
  constructor(source, location, problem, section = '') {
    super(`${source}: ${location}: ${problem}`);
    this.name = 'AssetError';
    this.source = source;
    this.location = location;
    this.section = section;
    this.problem = problem;
  }
}

function sectionError(source, section, problem) {
  return new AssetError(source, `section '${section}'`, problem, section);
}

const hex32 = (value) => '0x' + (value >>> 0).toString(16).padStart(8, '0');
const hex8 = (value) => '0x' + value.toString(16).padStart(2, '0');
const formatShape = (shape) => `[${shape.join(', ')}]`;
const checksumMismatch = (stored, computed) =>
  `checksum mismatch (stored ${hex32(stored)}, computed ${hex32(computed)})`;
const byteRange = (begin, length) => `[${begin}, ${begin + length})`;

const isLowerAlnum = (c) => (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);

function nameProblem(nameBytes) {
  if (nameBytes.length === 0) return 'name is empty';
  for (let i = 0; i < nameBytes.length; i++) {
    const c = nameBytes[i];
    if (!isLowerAlnum(c) && c !== 0x2e && c !== 0x5f && c !== 0x2d) {
      return `name has byte ${hex8(c)} at position ${i} (allowed: a-z 0-9 . _ -)`;
    }
  }
  if (!isLowerAlnum(nameBytes[0])) return 'name must start with a-z or 0-9';
  return null;
}

// Index of the first byte that does not start a well-formed UTF-8 sequence, or -1.
function firstInvalidUtf8(text) {
  let i = 0;
  while (i < text.length) {
    const lead = text[i];
    let continuation;
    let secondMin = 0x80;
    let secondMax = 0xbf;
    if (lead < 0x80) {
      i++;
      continue;
    } else if (lead >= 0xc2 && lead <= 0xdf) {
      continuation = 1;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      continuation = 2;
      if (lead === 0xe0) secondMin = 0xa0; // overlong
      if (lead === 0xed) secondMax = 0x9f; // surrogates
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      continuation = 3;
      if (lead === 0xf0) secondMin = 0x90; // overlong
      if (lead === 0xf4) secondMax = 0x8f; // above U+10FFFF
    } else {
      return i;
    }
    if (text.length - i <= continuation) return i;
    if (text[i + 1] < secondMin || text[i + 1] > secondMax) return i;
    for (let k = 2; k <= continuation; k++) {
      if (text[i + k] < 0x80 || text[i + k] > 0xbf) return i;
    }
    i += continuation + 1;
  }
  return -1;
}

function contentProblem(dtypeName, view, offset, length) {
  if (dtypeName === 'f32') {
    for (let i = 0; i + 4 <= length; i += 4) {
      const bits = view.getUint32(offset + i, true);
      if ((bits & 0x7f800000) === 0x7f800000) {
        return `element ${i / 4} ${bits & 0x007fffff ? 'is NaN' : 'is infinite'}`;
      }
    }
  } else if (dtypeName === 'f64') {
    for (let i = 0; i + 8 <= length; i += 8) {
      const low = view.getUint32(offset + i, true);
      const high = view.getUint32(offset + i + 4, true);
      if ((high & 0x7ff00000) === 0x7ff00000) {
        return `element ${i / 8} ${high & 0x000fffff || low ? 'is NaN' : 'is infinite'}`;
      }
    }
  } else if (dtypeName === 'utf8') {
    const at = firstInvalidUtf8(new Uint8Array(view.buffer, view.byteOffset + offset, length));
    if (at >= 0) return `invalid UTF-8 at byte ${at}`;
  }
  return null;
}

// Nesting depth of arrays and objects, counting brackets outside strings (as the C++ reader).
function jsonDepth(text) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  let escaped = false;
  for (const c of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === '[' || c === '{') {
      deepest = Math.max(deepest, ++depth);
    } else if ((c === ']' || c === '}') && depth > 0) {
      depth--;
    }
  }
  return deepest;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// What JSON.parse accepts but the C++ reader's parser does not: numbers that overflow to
// infinity and unpaired surrogate escapes. Depth is bounded by jsonDepth first.
function jsonMismatchProblem(value) {
  if (typeof value === 'number' && !Number.isFinite(value)) return 'number overflow';
  if (typeof value === 'string' && LONE_SURROGATE.test(value)) return 'unpaired surrogate';
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const problem = jsonMismatchProblem(key) ?? jsonMismatchProblem(item);
      if (problem) return problem;
    }
  }
  return null;
}

function jsonTypeName(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

function parseMeta(text, source) {
  const fail = (problem) => sectionError(source, 'meta', problem);
  if (text.startsWith('\ufeff')) throw fail('starts with a UTF-8 byte-order mark');
  if (jsonDepth(text) > MAX_META_DEPTH) {
    throw fail(`JSON nests deeper than ${MAX_META_DEPTH} levels`);
  }
  let meta;
  try {
    meta = JSON.parse(text);
  } catch (error) {
    throw fail(`not valid JSON: ${error.message}`);
  }
  const mismatch = jsonMismatchProblem(meta);
  if (mismatch) throw fail(`not valid JSON: ${mismatch}`);
  if (jsonTypeName(meta) !== 'object') {
    throw fail(`JSON must be an object, found ${jsonTypeName(meta)}`);
  }
  if (meta.format !== FORMAT_NAME) throw fail(`"format" must be "${FORMAT_NAME}"`);
  for (const key of ['kind', 'generator']) {
    if (typeof meta[key] !== 'string' || meta[key] === '') {
      throw fail(`"${key}" must be a non-empty string`);
    }
  }
  return meta;
}

function asBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (
    bytes instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer !== 'undefined' && bytes instanceof SharedArrayBuffer)
  ) {
    return new Uint8Array(bytes);
  }
  throw new TypeError('readAsset: bytes must be an ArrayBuffer or a Uint8Array');
}

// Checks everything but the metadata's content, in the order of FORMAT.md; returns the
// minor version and the sections (in table order).
function validateLayout(u8, source) {
  const view = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
  const size = u8.length;
  const fail = (location, problem) => new AssetError(source, location, problem);

  // Header.
  if (size < HEADER.size) {
    throw fail('header', `file is ${size} bytes, shorter than the ${HEADER.size}-byte header`);
  }
  if (MAGIC.some((byte, i) => u8[i] !== byte)) {
    const found = [...u8.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    throw fail(
      'header',
      `bad magic bytes ${found} (expected 89 53 4d 46 45 4d 0d 0a): ` +
        'not an smfem asset, or mangled by a text-mode transfer',
    );
  }
  const byteOrder = view.getUint32(HEADER.byteOrder, true);
  if (byteOrder === 0x04030201) {
    throw fail('header', 'byte-order mark reads 0x04030201: the file was written big-endian');
  }
  if (byteOrder !== BYTE_ORDER_MARK) {
    throw fail('header', `byte-order mark is ${hex32(byteOrder)}, expected ${hex32(BYTE_ORDER_MARK)}`);
  }
  const major = view.getUint16(HEADER.major, true);
  if (major !== MAJOR_VERSION) {
    throw fail('header', `unsupported major version ${major} (this reader reads version ${MAJOR_VERSION})`);
  }
  const storedHeaderCrc = view.getUint32(HEADER.headerCrc, true);
  const headerCrc = crc32(u8.subarray(0, HEADER.headerCrc));
  if (storedHeaderCrc !== headerCrc) throw fail('header', checksumMismatch(storedHeaderCrc, headerCrc));
  for (let i = HEADER.reserved; i < HEADER.reservedEnd; i++) {
    if (u8[i] !== 0) {
      throw fail('header', `reserved byte at offset ${i} is ${hex8(u8[i])}, must be zero`);
    }
  }
  const tableOffset = view.getUint32(HEADER.tableOffset, true);
  if (tableOffset !== HEADER.size) {
    throw fail('header', `section table offset is ${tableOffset}, must be ${HEADER.size}`);
  }
  const entrySize = view.getUint32(HEADER.entrySize, true);
  if (entrySize !== ENTRY.size) {
    throw fail('header', `section table entry size is ${entrySize}, must be ${ENTRY.size}`);
  }
  const declaredSize = view.getBigUint64(HEADER.fileSize, true);
  if (declaredSize !== BigInt(size)) {
    throw fail(
      'header',
      `file is ${size} bytes but the header says ${declaredSize}` +
        (BigInt(size) < declaredSize ? ' (truncated?)' : ' (bytes appended?)'),
    );
  }
  const minor = view.getUint16(HEADER.minor, true);
  const count = view.getUint32(HEADER.sectionCount, true);

  // Section table. count * 80 < 2^39: exact in a double.
  const tableBytes = count * ENTRY.size;
  if (tableBytes > size - HEADER.size) {
    throw fail(
      'section table',
      `${count} entries of ${ENTRY.size} bytes from offset ` +
        `${HEADER.size} run past the end of the ${size}-byte file`,
    );
  }
  const tableEnd = HEADER.size + tableBytes;
  const storedTableCrc = view.getUint32(HEADER.tableCrc, true);
  const tableCrc = crc32(u8.subarray(HEADER.size, tableEnd));
  if (storedTableCrc !== tableCrc) throw fail('section table', checksumMismatch(storedTableCrc, tableCrc));

  // Entries, in table order.
  const sections = [];
  const indexByName = new Map();
  for (let index = 0; index < count; index++) {
    const at = HEADER.size + index * ENTRY.size;
    const entryLocation = `section table entry ${index}`;
    const nameField = u8.subarray(at, at + ENTRY.nameCapacity);
    const nul = nameField.indexOf(0);
    if (nul < 0) {
      throw fail(entryLocation, `name is not NUL-terminated within ${ENTRY.nameCapacity} bytes`);
    }
    const problem = nameProblem(nameField.subarray(0, nul));
    if (problem) throw fail(entryLocation, problem);
    const junk = nameField.subarray(nul).find((b) => b !== 0);
    if (junk !== undefined) {
      throw fail(entryLocation, `name has byte ${hex8(junk)} after its terminating NUL`);
    }
    const name = String.fromCharCode(...nameField.subarray(0, nul));
    const failHere = (message) => sectionError(source, name, message);
    if (indexByName.has(name)) {
      throw failHere(`name used by entries ${indexByName.get(name)} and ${index}`);
    }
    indexByName.set(name, index);
    const code = view.getUint16(at + ENTRY.dtype, true);
    const dtype = DTYPES.get(code);
    if (!dtype) throw failHere(`unknown dtype ${code}`);
    const rank = view.getUint16(at + ENTRY.rank, true);
    if (rank < 1 || rank > MAX_RANK) throw failHere(`rank ${rank} is outside 1..${MAX_RANK}`);
    const shape = [];
    for (let d = 0; d < MAX_RANK; d++) {
      const extent = view.getUint32(at + ENTRY.shape + 4 * d, true);
      if (d < rank) {
        shape.push(extent);
      } else if (extent !== 0) {
        throw failHere(`shape[${d}] is ${extent} but the rank is ${rank}; unused extents must be zero`);
      }
    }
    if (dtype.name === 'utf8' && rank !== 1) {
      throw failHere(`utf8 text must have rank 1, not ${rank}`);
    }
    for (let i = ENTRY.reserved; i < ENTRY.size; i++) {
      if (u8[at + i] !== 0) {
        throw failHere(`reserved byte at entry offset ${i} is ${hex8(u8[at + i])}, must be zero`);
      }
    }
    const storedCrc = view.getUint32(at + ENTRY.dataCrc, true);
    const offset = view.getBigUint64(at + ENTRY.offset, true);
    const length = view.getBigUint64(at + ENTRY.length, true);

    const shapeText = `${formatShape(shape)} of ${dtype.name}`;
    let expected = BigInt(dtype.size);
    for (const extent of shape) {
      if (extent !== 0 && expected * BigInt(extent) > U64_MAX) {
        throw failHere(`shape ${shapeText} needs more than 2^64 bytes`);
      }
      expected *= BigInt(extent);
    }
    if (length !== expected) {
      throw failHere(`byte length ${length} does not match shape ${shapeText} (${expected} bytes)`);
    }
    if (offset % BigInt(DATA_ALIGNMENT) !== 0n) {
      throw failHere(`data offset ${offset} is not a multiple of ${DATA_ALIGNMENT}`);
    }
    if (offset < BigInt(tableEnd)) {
      throw failHere(
        `data offset ${offset} lies inside the header or section table ` + `(which end at ${tableEnd})`,
      );
    }
    if (offset > BigInt(size) || length > BigInt(size) - offset) {
      throw failHere(
        `data at offset ${offset}, ${length} bytes long, runs past the end of the ` + `${size}-byte file`,
      );
    }
    sections.push({
      name,
      dtype: dtype.name,
      shape,
      offset: Number(offset),
      length: Number(length),
      crc32: storedCrc,
    });
  }

  // Placement of the data: no overlap, zero padding.
  const byOffset = [...sections].sort((a, b) => a.offset - b.offset || a.length - b.length);
  for (let i = 1; i < byOffset.length; i++) {
    const before = byOffset[i - 1];
    const after = byOffset[i];
    if (after.offset < before.offset + before.length) {
      throw sectionError(
        source,
        after.name,
        `data ${byteRange(after.offset, after.length)} ` +
          `overlaps section '${before.name}' ${byteRange(before.offset, before.length)}`,
      );
    }
  }
  let coveredTo = tableEnd;
  const checkGap = (gapEnd) => {
    for (let i = coveredTo; i < gapEnd; i++) {
      if (u8[i] !== 0) {
        throw fail('padding', `byte at offset ${i} is ${hex8(u8[i])}; bytes between sections must be zero`);
      }
    }
  };
  for (const section of byOffset) {
    checkGap(section.offset);
    coveredTo = Math.max(coveredTo, section.offset + section.length);
  }
  checkGap(size);

  // Data.
  for (const section of sections) {
    const computed = crc32(u8.subarray(section.offset, section.offset + section.length));
    if (computed !== section.crc32) {
      throw sectionError(source, section.name, checksumMismatch(section.crc32, computed));
    }
  }
  for (const section of sections) {
    const problem = contentProblem(section.dtype, view, section.offset, section.length);
    if (problem) throw sectionError(source, section.name, problem);
  }
  return { minor, sections };
}

/**
 * Validates a baked asset and returns accessors to it. The asset views `bytes` without
 * copying: do not modify them afterwards.
 * @param {ArrayBuffer | Uint8Array} bytes
 * @param {string} sourceName names the asset in error messages (e.g. its URL or path)
 * @returns {import('./asset.d.ts').Asset}
 * @throws {AssetError}
 */
export function readAsset(bytes, sourceName) {
  if (!HOST_IS_LITTLE_ENDIAN) throw new Error('readAsset needs a little-endian host');
  const u8 = asBytes(bytes);
  const source = String(sourceName);
  const { minor, sections } = validateLayout(u8, source);
  const byName = new Map(sections.map((section) => [section.name, section]));

  const section = (name) => {
    const found = byName.get(name);
    if (!found) throw sectionError(source, name, 'section is missing');
    return found;
  };
  const rawBytes = (info) => u8.subarray(info.offset, info.offset + info.length);
  const text = (name) => {
    const info = section(name);
    if (info.dtype !== 'utf8') throw sectionError(source, name, `holds ${info.dtype}, requested as utf8`);
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(rawBytes(info));
  };

  if (!byName.has('meta')) throw sectionError(source, 'meta', 'section is missing');
  const metaInfo = byName.get('meta');
  if (metaInfo.dtype !== 'utf8') {
    throw sectionError(source, 'meta', `must be utf8 text, not ${metaInfo.dtype}`);
  }
  const meta = parseMeta(text('meta'), source);

  return {
    source,
    version: { major: MAJOR_VERSION, minor },
    fileSize: u8.length,
    meta,
    sections: sections.map((info) => ({ ...info, shape: [...info.shape] })),
    has: (name) => byName.has(name),
    section: (name) => {
      const info = section(name);
      return { ...info, shape: [...info.shape] };
    },
    expect(name, dtype, shape) {
      const info = section(name);
      const matches =
        info.dtype === dtype &&
        info.shape.length === shape.length &&
        shape.every((extent, d) => extent === -1 || extent === info.shape[d]);
      if (!matches) {
        const wanted = `${dtype} [${shape.map((e) => (e === -1 ? 'any' : e)).join(', ')}]`;
        throw sectionError(
          source,
          name,
          `expected ${wanted}, found ${info.dtype} ${formatShape(info.shape)}`,
        );
      }
      return { ...info, shape: [...info.shape] };
    },
    get(name) {
      const info = section(name);
      const { ArrayType } = DTYPE_BY_NAME[info.dtype];
      const count = info.length / ArrayType.BYTES_PER_ELEMENT;
      const start = u8.byteOffset + info.offset;
      if (start % ArrayType.BYTES_PER_ELEMENT === 0) return new ArrayType(u8.buffer, start, count);
      return new ArrayType(u8.slice(info.offset, info.offset + info.length).buffer); // unaligned
    },
    text,
  };
}

/**
 * The render surface group (see FORMAT.md), cross-checked like the C++ read_render_surface.
 * Arrays are row-major views: positions [vertexCount, 3], triangles [triangleCount, 3]
 * (0-based, counter-clockwise seen from outside), weights [vertexCount, modeCount] and
 * normals [vertexCount, 3] when present.
 * @param {ReturnType<typeof readAsset>} asset
 * @throws {AssetError}
 */
export function readRenderSurface(asset) {
  const positionsInfo = asset.expect('render.positions', 'f32', [-1, 3]);
  const vertexCount = positionsInfo.shape[0];
  const triangleCount = asset.expect('render.triangles', 'u32', [-1, 3]).shape[0];
  let modeCount = 0;
  if (asset.has('render.weights')) {
    modeCount = asset.expect('render.weights', 'f32', [vertexCount, -1]).shape[1];
  }
  if (asset.has('render.normals')) asset.expect('render.normals', 'f32', [vertexCount, 3]);
  if (asset.has('render.clusters')) asset.expect('render.clusters', 'u32', [vertexCount]);

  const triangles = asset.get('render.triangles');
  const fail = (problem) => sectionError(asset.source, 'render.triangles', problem);
  if (triangleCount === 0) throw fail('the surface has no triangles');
  for (let t = 0; t < triangleCount; t++) {
    const a = triangles[3 * t];
    const b = triangles[3 * t + 1];
    const c = triangles[3 * t + 2];
    for (const index of [a, b, c]) {
      if (index >= vertexCount) {
        throw fail(
          `triangle ${t} has vertex index ${index}, but render.positions has ` + `${vertexCount} vertices`,
        );
      }
    }
    if (a === b || b === c || c === a) throw fail(`triangle ${t} repeats a vertex`);
  }
  const surface = {
    vertexCount,
    triangleCount,
    modeCount,
    positions: asset.get('render.positions'),
    triangles,
  };
  if (asset.has('render.weights')) surface.weights = asset.get('render.weights');
  if (asset.has('render.normals')) surface.normals = asset.get('render.normals');
  if (asset.has('render.clusters')) surface.clusters = asset.get('render.clusters');
  return surface;
}

/**
 * Where the cubature's representative tets are, for display (cubature.centroids [C, 3] and
 * cubature.centroid_weights [C, m], f32), or null when the asset has neither.
 */
export function readCubatureMarkers(asset) {
  if (!asset.has('cubature.centroids') || !asset.has('cubature.centroid_weights')) return null;
  const count = asset.expect('cubature.centroids', 'f32', [-1, 3]).shape[0];
  const modeCount = asset.expect('cubature.centroid_weights', 'f32', [count, -1]).shape[1];
  return {
    centroids: asset.get('cubature.centroids'),
    weights: asset.get('cubature.centroid_weights'),
    count,
    modeCount,
  };
}
