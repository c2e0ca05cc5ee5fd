// The JS asset reader (wasm/js/asset.js) on real assets written by the C++ writer
// (build/bin/smfem-asset example), and on the same corruptions as the C++ tests. Where a file
// is refused, the C++ reader (smfem-asset verify) must refuse it with the same message.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetError, readAsset, readRenderSurface } from '../../wasm/js/asset.js';
import { crc32 } from '../../wasm/js/crc32.js';

const assetTool = fileURLToPath(new URL('../../build/bin/smfem-asset', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'smfem-asset-js-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const HEADER_SIZE = 64;
const ENTRY_SIZE = 80;
const at = {
  major: 8,
  minor: 10,
  byteOrder: 12,
  count: 16,
  tableCrc: 28,
  fileSize: 32,
  headerCrc: 60,
  dtype: 32,
  rank: 34,
  shape: 36,
  dataCrc: 52,
  offset: 56,
  length: 64,
};

let example; // Uint8Array of the C++-written example asset

beforeAll(() => {
  if (!existsSync(assetTool)) {
    throw new Error(
      `${assetTool} is missing: build it first (cmake --preset native && cmake --build --preset native)`,
    );
  }
  const file = join(scratch, 'example.smfem');
  execFileSync(assetTool, ['example', file]);
  example = new Uint8Array(readFileSync(file));
});

// --- doctoring bytes, as tests/native/asset/asset_test_bytes.hpp does ----------------------

const view = (bytes) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const copy = (bytes) => new Uint8Array(bytes);
const entryAt = (index) => HEADER_SIZE + index * ENTRY_SIZE;
const sectionCount = (bytes) => view(bytes).getUint32(at.count, true);

function entryOf(bytes, name) {
  for (let i = 0; i < sectionCount(bytes); i++) {
    const field = bytes.subarray(entryAt(i), entryAt(i) + 32);
    if (new TextDecoder().decode(field.subarray(0, field.indexOf(0))) === name) return entryAt(i);
  }
  throw new Error(`no entry ${name}`);
}
const dataOffset = (bytes, name) => Number(view(bytes).getBigUint64(entryOf(bytes, name) + at.offset, true));

function setName(bytes, entry, name) {
  bytes.fill(0, entry, entry + 32);
  bytes.set(new TextEncoder().encode(name), entry);
}

// Recomputes data checksums, the table checksum, the file size and the header checksum.
function reseal(bytes) {
  const dv = view(bytes);
  const tableEnd = entryAt(sectionCount(bytes));
  if (tableEnd <= bytes.length) {
    for (let i = 0; i < sectionCount(bytes); i++) {
      const offset = dv.getBigUint64(entryAt(i) + at.offset, true);
      const length = dv.getBigUint64(entryAt(i) + at.length, true);
      if (offset <= BigInt(bytes.length) && length <= BigInt(bytes.length) - offset) {
        const data = bytes.subarray(Number(offset), Number(offset + length));
        dv.setUint32(entryAt(i) + at.dataCrc, crc32(data), true);
      }
    }
    dv.setUint32(at.tableCrc, crc32(bytes.subarray(HEADER_SIZE, tableEnd)), true);
  }
  dv.setBigUint64(at.fileSize, BigInt(bytes.length), true);
  dv.setUint32(at.headerCrc, crc32(bytes.subarray(0, at.headerCrc)), true);
  return bytes;
}

// The example with its meta text replaced by `text`, padded with spaces to the same length.
function withMetaText(text) {
  const bytes = copy(example);
  const entry = entryOf(bytes, 'meta');
  const length = Number(view(bytes).getBigUint64(entry + at.length, true));
  const encoded = new TextEncoder().encode(text);
  expect(encoded.length).toBeLessThanOrEqual(length);
  const padded = new Uint8Array(length).fill(0x20);
  padded.set(encoded);
  bytes.set(padded, dataOffset(bytes, 'meta'));
  return reseal(bytes);
}

// --- the two readers ---------------------------------------------------------------------

let fileCounter = 0;

// The C++ reader's verdict on `bytes`: null if valid, else its one-line error message.
function cppVerdict(bytes) {
  const file = join(scratch, `case-${fileCounter++}.smfem`);
  writeFileSync(file, bytes);
  const result = spawnSync(assetTool, ['verify', file], { encoding: 'utf8' });
  rmSync(file);
  if (result.status === 0) return { file, message: null };
  expect(result.status).toBe(2);
  return { file, message: result.stderr.trim() };
}

function jsError(bytes, source) {
  try {
    readAsset(bytes, source);
  } catch (error) {
    expect(error).toBeInstanceOf(AssetError);
    return error;
  }
  return null;
}

// Both readers refuse `bytes` with "<file>: <location>: <problem>" (problem: a string, or a
// RegExp where the parsers' own wording differs).
function expectBothRefuse(bytes, location, problem) {
  const { file, message } = cppVerdict(bytes);
  const error = jsError(bytes, file);
  expect(error, 'the JS reader accepted it').not.toBeNull();
  expect(error.source).toBe(file);
  expect(error.location).toBe(location);
  if (typeof problem === 'string') {
    expect(error.problem).toBe(problem);
    expect(error.message).toBe(`${file}: ${location}: ${problem}`);
    expect(message).toBe(error.message);
  } else {
    expect(error.problem).toMatch(problem);
    expect(message).toMatch(new RegExp(`^${file}: ${location}: ${problem.source}`));
  }
}

// --- tests -------------------------------------------------------------------------------

describe('crc32', () => {
  it('matches the zlib check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(new Uint8Array(32))).toBe(0x190a55ad);
  });

  it('continues across pieces', () => {
    const bytes = new TextEncoder().encode('The quick brown fox jumps over the lazy dog');
    for (let split = 0; split <= bytes.length; split++) {
      expect(crc32(bytes.subarray(split), crc32(bytes.subarray(0, split)))).toBe(0x414fa339);
    }
  });
});

describe('readAsset on the C++ example', () => {
  it('agrees with smfem-asset info --json on sections and metadata', () => {
    const file = join(scratch, 'example.smfem');
    const info = JSON.parse(execFileSync(assetTool, ['info', '--json', file], { encoding: 'utf8' }));
    const asset = readAsset(example, file);
    expect(asset.version).toEqual(info.version);
    expect(asset.fileSize).toBe(info.file_size);
    expect(asset.meta).toEqual(info.meta);
    expect(asset.sections).toEqual(info.sections);
    expect(asset.sections.map((s) => s.name)).toEqual([
      'meta',
      'render.positions',
      'render.triangles',
      'render.weights',
      'render.normals',
      'example.eigenvalues',
      'example.offsets',
      'example.corner_flags',
      'example.tensor',
      'example.readme',
    ]);
    expect(asset.meta).toMatchObject({ format: 'smfem-asset', kind: 'render-surface', m: 2 });
  });

  it('returns typed arrays of every dtype', () => {
    const asset = readAsset(example, 'example.smfem');
    const eigenvalues = asset.get('example.eigenvalues');
    expect(eigenvalues).toBeInstanceOf(Float64Array);
    expect([...eigenvalues]).toEqual([12.5, 40.25]);
    expect(asset.get('example.offsets')).toEqual(new Int32Array([-3, -1, 1, 3]));
    expect(asset.get('example.corner_flags')).toEqual(new Uint8Array([1, 1, 1, 1, 0, 0, 0, 0]));
    expect(asset.get('example.tensor')).toEqual(new Float32Array([0.5, -0.25, 1e-3, 3]));
    expect(asset.get('render.triangles')).toBeInstanceOf(Uint32Array);
    expect(asset.section('example.tensor').shape).toEqual([1, 2, 1, 2]);
    expect(asset.text('example.readme')).toMatch(/^Unit cube .* Non-ASCII text: ü ✓$/);
    expect(asset.has('render.weights')).toBe(true);
    expect(asset.has('render.colors')).toBe(false);
  });

  it('views aligned data without copying, and copies unaligned data', () => {
    const aligned = readAsset(example, 'example.smfem');
    expect(aligned.get('example.eigenvalues').buffer).toBe(example.buffer);
    const shifted = new Uint8Array(example.length + 1);
    shifted.set(example, 1);
    const unaligned = readAsset(shifted.subarray(1), 'example.smfem');
    const eigenvalues = unaligned.get('example.eigenvalues');
    expect(eigenvalues.buffer).not.toBe(shifted.buffer);
    expect([...eigenvalues]).toEqual([12.5, 40.25]);
    expect([...unaligned.get('render.positions')]).toEqual([...aligned.get('render.positions')]);
    expect(readAsset(example.slice().buffer, 'x').get('example.offsets')).toEqual(
      new Int32Array([-3, -1, 1, 3]),
    );
  });

  it('refuses what is not bytes', () => {
    expect(() => readAsset('text', 'x')).toThrow(TypeError);
    expect(() => readAsset([1, 2, 3], 'x')).toThrow(TypeError);
  });

  it('names missing sections and wrong types', () => {
    const asset = readAsset(example, 'demo.smfem');
    expect(() => asset.get('render.colors')).toThrow(
      "demo.smfem: section 'render.colors': section is missing",
    );
    expect(() => asset.text('render.positions')).toThrow(
      "demo.smfem: section 'render.positions': holds f32, requested as utf8",
    );
    expect(() => asset.expect('render.positions', 'f32', [-1, 4])).toThrow(
      "demo.smfem: section 'render.positions': expected f32 [any, 4], found f32 [8, 3]",
    );
    expect(asset.expect('render.positions', 'f32', [8, 3]).shape).toEqual([8, 3]);
  });
});

describe('readRenderSurface', () => {
  it('reads the unit cube', () => {
    const surface = readRenderSurface(readAsset(example, 'example.smfem'));
    expect(surface).toMatchObject({ vertexCount: 8, triangleCount: 12, modeCount: 2 });
    const { positions: p, triangles: t, weights } = surface;
    expect(p).toBeInstanceOf(Float32Array);
    expect(t).toBeInstanceOf(Uint32Array);
    // Counter-clockwise seen from outside: the signed volume is +1.
    let volume = 0;
    for (let k = 0; k < t.length; k += 3) {
      const [a, b, c] = [3 * t[k], 3 * t[k + 1], 3 * t[k + 2]];
      volume +=
        (p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) -
          p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) +
          p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])) /
        6;
    }
    expect(volume).toBeCloseTo(1, 6);
    for (let v = 0; v < 8; v++) {
      const [x, , z] = p.subarray(3 * v, 3 * v + 3);
      expect([weights[2 * v], weights[2 * v + 1]]).toEqual([z, x * z]);
    }
    expect(surface.normals).toHaveLength(24);
  });

  function withTriangle(index, value) {
    const bytes = copy(example);
    view(bytes).setUint32(dataOffset(bytes, 'render.triangles') + 4 * index, value, true);
    return readAsset(reseal(bytes), 'demo.smfem');
  }

  it('refuses indices out of range and repeated vertices', () => {
    expect(() => readRenderSurface(withTriangle(7, 8))).toThrow(
      "demo.smfem: section 'render.triangles': triangle 2 has vertex index 8, but render.positions has 8 vertices",
    );
    const repeated = withTriangle(1, 0); // triangle 0 becomes (0, 0, 2)
    expect(() => readRenderSurface(repeated)).toThrow(
      "demo.smfem: section 'render.triangles': triangle 0 repeats a vertex",
    );
  });

  it('refuses weights with another vertex count', () => {
    const bytes = copy(example);
    const entry = entryOf(bytes, 'render.weights');
    view(bytes).setUint32(entry + at.shape, 4, true);
    view(bytes).setUint32(entry + at.shape + 4, 4, true);
    const error = jsError(reseal(bytes), 'demo.smfem');
    expect(error).toBeNull();
    expect(() => readRenderSurface(readAsset(bytes, 'demo.smfem'))).toThrow(
      "demo.smfem: section 'render.weights': expected f32 [8, any], found f32 [4, 4]",
    );
  });
});

describe('both readers refuse damaged files alike', () => {
  const patched = (patch, { seal = true } = {}) => {
    const bytes = copy(example);
    patch(bytes, view(bytes));
    return seal ? reseal(bytes) : bytes;
  };

  it('bad magic, and CR LF mangled to LF', () => {
    expectBothRefuse(
      patched((b) => (b[0] = 0x58), { seal: false }),
      'header',
      'bad magic bytes 58 53 4d 46 45 4d 0d 0a (expected 89 53 4d 46 45 4d 0d 0a): ' +
        'not an smfem asset, or mangled by a text-mode transfer',
    );
    const mangled = new Uint8Array([...example.subarray(0, 6), ...example.subarray(7)]);
    expectBothRefuse(
      mangled,
      'header',
      'bad magic bytes 89 53 4d 46 45 4d 0a 01 (expected 89 53 4d 46 45 4d 0d 0a): ' +
        'not an smfem asset, or mangled by a text-mode transfer',
    );
  });

  it('big-endian byte-order mark', () => {
    expectBothRefuse(
      patched((b) => b.set([1, 2, 3, 4], at.byteOrder), { seal: false }),
      'header',
      'byte-order mark reads 0x04030201: the file was written big-endian',
    );
  });

  it('other major version', () => {
    expectBothRefuse(
      patched((b, v) => v.setUint16(at.major, 2, true)),
      'header',
      'unsupported major version 2 (this reader reads version 1)',
    );
  });

  it('accepts a newer minor version', () => {
    const bytes = patched((b, v) => v.setUint16(at.minor, 3, true));
    expect(cppVerdict(bytes).message).toBeNull();
    expect(readAsset(bytes, 'x').version).toEqual({ major: 1, minor: 3 });
  });

  it('header checksum, reserved bytes', () => {
    expectBothRefuse(
      patched((b) => (b[at.minor] ^= 1), { seal: false }),
      'header',
      /checksum mismatch \(stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}\)/,
    );
    expectBothRefuse(
      patched((b) => (b[45] = 7)),
      'header',
      'reserved byte at offset 45 is 0x07, must be zero',
    );
  });

  it('truncated inside the table and the data, bytes appended', () => {
    for (const length of [64, 100, example.length - 1]) {
      expectBothRefuse(
        example.slice(0, length),
        'header',
        `file is ${length} bytes but the header says ${example.length} (truncated?)`,
      );
    }
    expectBothRefuse(
      new Uint8Array([...example, 0]),
      'header',
      `file is ${example.length + 1} bytes but the header says ${example.length} (bytes appended?)`,
    );
  });

  it('table past the end, table checksum', () => {
    expectBothRefuse(
      patched((b, v) => v.setUint32(at.count, 0xffffffff, true)),
      'section table',
      `4294967295 entries of 80 bytes from offset 64 run past the end of the ${example.length}-byte file`,
    );
    expectBothRefuse(
      patched((b) => (b[entryAt(1)] = 0x7a), { seal: false }),
      'section table',
      /checksum mismatch/,
    );
  });

  it('bad names and duplicates', () => {
    expectBothRefuse(
      patched((b) => setName(b, entryAt(1), 'Render')),
      'section table entry 1',
      'name has byte 0x52 at position 0 (allowed: a-z 0-9 . _ -)',
    );
    expectBothRefuse(
      patched((b) => setName(b, entryAt(1), '')),
      'section table entry 1',
      'name is empty',
    );
    expectBothRefuse(
      patched((b) => setName(b, entryAt(1), 'x'.repeat(32))),
      'section table entry 1',
      'name is not NUL-terminated within 32 bytes',
    );
    expectBothRefuse(
      patched((b) => (b[entryAt(1) + 30] = 0x78)),
      'section table entry 1',
      'name has byte 0x78 after its terminating NUL',
    );
    expectBothRefuse(
      patched((b) => setName(b, entryAt(2), 'render.positions')),
      "section 'render.positions'",
      'name used by entries 1 and 2',
    );
  });

  it('unknown dtype, rank 0 and 5, unused extents', () => {
    const entry = entryOf(example, 'render.weights');
    expectBothRefuse(
      patched((b, v) => v.setUint16(entry + at.dtype, 9, true)),
      "section 'render.weights'",
      'unknown dtype 9',
    );
    for (const rank of [0, 5]) {
      expectBothRefuse(
        patched((b, v) => v.setUint16(entry + at.rank, rank, true)),
        "section 'render.weights'",
        `rank ${rank} is outside 1..4`,
      );
    }
    expectBothRefuse(
      patched((b, v) => v.setUint32(entry + at.shape + 12, 1, true)),
      "section 'render.weights'",
      'shape[3] is 1 but the rank is 2; unused extents must be zero',
    );
  });

  it('length against shape, and shape products that overflow', () => {
    const entry = entryOf(example, 'render.weights');
    expectBothRefuse(
      patched((b, v) => v.setUint32(entry + at.shape + 4, 3, true)),
      "section 'render.weights'",
      'byte length 64 does not match shape [8, 3] of f32 (96 bytes)',
    );
    expectBothRefuse(
      patched((b, v) => {
        v.setUint32(entry + at.shape, 0xffffffff, true);
        v.setUint32(entry + at.shape + 4, 0xffffffff, true);
      }),
      "section 'render.weights'",
      'shape [4294967295, 4294967295] of f32 needs more than 2^64 bytes',
    );
    expectBothRefuse(
      patched((b, v) => {
        v.setUint16(entry + at.dtype, 1, true);
        v.setUint16(entry + at.rank, 3, true);
        [6700417, 42009217, 65535].forEach((e, d) => v.setUint32(entry + at.shape + 4 * d, e, true));
        v.setBigUint64(entry + at.length, (1n << 64n) - 1n, true);
      }),
      "section 'render.weights'",
      `data at offset ${dataOffset(example, 'render.weights')}, 18446744073709551615 bytes long, runs past the end of the ${example.length}-byte file`,
    );
  });

  it('misaligned, inside the table, past the end, overlapping', () => {
    const entry = entryOf(example, 'render.weights');
    const offset = dataOffset(example, 'render.weights');
    expectBothRefuse(
      patched((b, v) => v.setBigUint64(entry + at.offset, BigInt(offset + 4), true)),
      "section 'render.weights'",
      `data offset ${offset + 4} is not a multiple of 16`,
    );
    expectBothRefuse(
      patched((b, v) => v.setBigUint64(entry + at.offset, 64n, true)),
      "section 'render.weights'",
      'data offset 64 lies inside the header or section table (which end at 864)',
    );
    expectBothRefuse(
      patched((b, v) => v.setBigUint64(entry + at.offset, 1n << 40n, true)),
      "section 'render.weights'",
      `data at offset 1099511627776, 64 bytes long, runs past the end of the ${example.length}-byte file`,
    );
    const positions = dataOffset(example, 'render.positions');
    expectBothRefuse(
      patched((b, v) => v.setBigUint64(entry + at.offset, BigInt(positions), true)),
      "section 'render.positions'",
      `data [${positions}, ${positions + 96}) overlaps section 'render.weights' [${positions}, ${positions + 64})`,
    );
  });

  it('non-zero padding', () => {
    const gap = dataOffset(example, 'example.corner_flags') + 8; // 8 bytes, then 8 of padding
    expectBothRefuse(
      patched((b) => (b[gap + 2] = 1), { seal: false }),
      'padding',
      `byte at offset ${gap + 2} is 0x01; bytes between sections must be zero`,
    );
    const trailing = reseal(new Uint8Array([...example, 0, 9]));
    expectBothRefuse(
      trailing,
      'padding',
      `byte at offset ${example.length + 1} is 0x09; bytes between sections must be zero`,
    );
    const zeroTail = reseal(new Uint8Array([...example, 0, 0]));
    expect(cppVerdict(zeroTail).message).toBeNull();
    expect(jsError(zeroTail, 'x')).toBeNull();
  });

  it('data checksum, NaN, infinity, invalid UTF-8', () => {
    const positions = dataOffset(example, 'render.positions');
    expectBothRefuse(
      patched((b) => (b[positions + 5] ^= 0x40), { seal: false }),
      "section 'render.positions'",
      /checksum mismatch/,
    );
    expectBothRefuse(
      patched((b, v) => v.setUint32(positions + 8, 0x7fc00000, true)),
      "section 'render.positions'",
      'element 2 is NaN',
    );
    expectBothRefuse(
      patched((b, v) => v.setUint32(positions + 8, 0xff800000, true)),
      "section 'render.positions'",
      'element 2 is infinite',
    );
    const eigenvalues = dataOffset(example, 'example.eigenvalues');
    expectBothRefuse(
      patched((b, v) => v.setFloat64(eigenvalues + 8, NaN, true)),
      "section 'example.eigenvalues'",
      'element 1 is NaN',
    );
    const readme = dataOffset(example, 'example.readme');
    expectBothRefuse(
      patched((b) => b.set([0xed, 0xa0, 0x80], readme + 3)),
      "section 'example.readme'",
      'invalid UTF-8 at byte 3',
    );
  });

  it('metadata: missing, not text, not JSON, not an object, required keys', () => {
    expectBothRefuse(
      patched((b) => setName(b, entryOf(b, 'meta'), 'metb')),
      "section 'meta'",
      'section is missing',
    );
    expectBothRefuse(
      patched((b, v) => v.setUint16(entryOf(b, 'meta') + at.dtype, 1, true)),
      "section 'meta'",
      'must be utf8 text, not u8',
    );
    expectBothRefuse(withMetaText('{"format": smfem}'), "section 'meta'", /not valid JSON: /);
    expectBothRefuse(
      withMetaText('{"format": "smfem-asset", "kind": "k", "generator": "g", "x": 1e400}'),
      "section 'meta'",
      /not valid JSON: /,
    );
    expectBothRefuse(
      withMetaText('{"format": "smfem-asset", "kind": "k", "generator": "\\ud800"}'),
      "section 'meta'",
      /not valid JSON: /,
    );
    expectBothRefuse(withMetaText('[1, 2]'), "section 'meta'", 'JSON must be an object, found array');
    expectBothRefuse(
      withMetaText('{"format": "smfem-asset", "kind": "", "generator": "g"}'),
      "section 'meta'",
      '"kind" must be a non-empty string',
    );
    expectBothRefuse(withMetaText('\ufeff{}'), "section 'meta'", 'starts with a UTF-8 byte-order mark');
    expectBothRefuse(
      withMetaText(`{"a": ${'['.repeat(64)}${']'.repeat(64)}}`),
      "section 'meta'",
      'JSON nests deeper than 64 levels',
    );
  });
});

describe('sweeps over the example', () => {
  it('refuses every truncation', () => {
    for (let length = 0; length < example.length; length++) {
      const error = jsError(example.subarray(0, length), 'demo.smfem');
      expect(error?.problem).toBe(
        length < 64
          ? `file is ${length} bytes, shorter than the 64-byte header`
          : `file is ${length} bytes but the header says ${example.length} (truncated?)`,
      );
    }
  });

  it('refuses every single-bit flip, and agrees with C++ on a sample of them', () => {
    let refused = 0;
    for (let i = 0; i < example.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const flipped = copy(example);
        flipped[i] ^= 1 << bit;
        const sampled = (8 * i + bit) % 61 === 0;
        const source = sampled ? cppVerdict(flipped) : { file: 'demo.smfem' };
        const error = jsError(flipped, source.file);
        if (error) refused++;
        if (sampled) expect(error?.message).toBe(source.message);
      }
    }
    expect(refused).toBe(8 * example.length);
  });
});
