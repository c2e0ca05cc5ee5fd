// Declarations of wasm/js/crc32.js.

/** CRC-32 (zlib/PNG); pass the previous result as `crc` to continue over pieces. */
export function crc32(bytes: Uint8Array, crc?: number): number;
