// Declarations of wasm/js/asset.js: the JS reader of baked assets (assets/FORMAT.md).

/** Element types of sections; 'utf8' sections hold text (rank 1, extent = byte length). */
export type DType = 'u8' | 'i32' | 'u32' | 'f32' | 'f64' | 'utf8';

/** The typed array each dtype is read as (utf8 as its raw bytes). */
export type SectionArray = Uint8Array | Int32Array | Uint32Array | Float32Array | Float64Array;

export interface SectionInfo {
  name: string;
  dtype: DType;
  /** Extents, 1 to 4 of them, row-major: the last index runs fastest. */
  shape: number[];
  /** Byte offset of the data in the file, a multiple of 16. */
  offset: number;
  /** Bytes: product(shape) * size of dtype. */
  length: number;
  /** CRC-32 (zlib) of the data, as stored and verified. */
  crc32: number;
}

/** A validated asset. It views the bytes given to readAsset: do not modify them. */
export interface Asset {
  /** The name given to readAsset, used in error messages. */
  readonly source: string;
  /** major is always 1; newer minor versions are accepted. */
  readonly version: { major: number; minor: number };
  readonly fileSize: number;
  /** The section 'meta': a JSON object with at least format, kind and generator. */
  readonly meta: { format: 'smfem-asset'; kind: string; generator: string; [key: string]: unknown };
  /** In the order of the section table. */
  readonly sections: SectionInfo[];
  has(name: string): boolean;
  /** Throws AssetError ("section is missing") if there is no such section. */
  section(name: string): SectionInfo;
  /** The section after checking its dtype and shape; -1 matches any extent. */
  expect(name: string, dtype: DType, shape: number[]): SectionInfo;
  /**
   * The data as a typed array of the section's dtype, in row-major order: a view into the
   * given bytes when they are aligned for it, else a copy.
   */
  get(name: string): SectionArray;
  /** The text of a utf8 section; throws AssetError for other dtypes. */
  text(name: string): string;
}

/** Thrown for every problem with an asset; message is "<source>: <location>: <problem>". */
export class AssetError extends Error {
  constructor(source: string, location: string, problem: string, section?: string);
  readonly name: 'AssetError';
  readonly source: string;
  /** "header", "section table", "section table entry <i>", "padding" or "section '<name>'". */
  readonly location: string;
  /** The name of the section at fault, or '' when the error is about something else. */
  readonly section: string;
  readonly problem: string;
}

/**
 * Validates a baked asset (header, table, bounds, shapes, checksums, finite floats, UTF-8,
 * metadata) with the same checks, order and messages as the C++ reader.
 * @param sourceName names the asset in error messages (e.g. its URL or path).
 * @throws AssetError if the asset is invalid; TypeError if `bytes` is not bytes.
 */
export function readAsset(bytes: ArrayBuffer | SharedArrayBuffer | Uint8Array, sourceName: string): Asset;

/** The render surface group; arrays are row-major views (see Asset.get). */
export interface RenderSurface {
  vertexCount: number;
  triangleCount: number;
  /** Number of skinning modes m; 0 when the asset has no render.weights. */
  modeCount: number;
  /** [vertexCount, 3] rest positions. */
  positions: Float32Array;
  /** [triangleCount, 3] 0-based vertex indices, counter-clockwise seen from outside. */
  triangles: Uint32Array;
  /** [vertexCount, modeCount] skinning weights, when the asset has them. */
  weights?: Float32Array;
  /** [vertexCount, 3] rest normals, when the asset has them. */
  normals?: Float32Array;
  /** [vertexCount] cubature cluster of each vertex (for display), when the asset has them. */
  clusters?: Uint32Array;
}

/** The cubature's representative tets, for display. */
export interface CubatureMarkers {
  /** [count, 3] rest centroids. */
  centroids: Float32Array;
  /** [count, modeCount] skinning weights at the centroids. */
  weights: Float32Array;
  count: number;
  modeCount: number;
}

/**
 * Reads the render surface group and checks it like the C++ read_render_surface: shapes
 * agree on the vertex count, at least one triangle, indices < vertexCount, no triangle
 * repeats a vertex.
 * @throws AssetError
 */
export function readRenderSurface(asset: Asset): RenderSurface;

/**
 * Reads cubature.centroids and cubature.centroid_weights, or returns null when the asset has
 * neither. @throws AssetError on a wrong dtype or shape.
 */
export function readCubatureMarkers(asset: Asset): CubatureMarkers | null;
