// CRC-32 as in zlib, PNG and gzip (reflected polynomial 0xEDB88320, initial value and final
// XOR 0xFFFFFFFF): crc32(bytes of "123456789") === 0xcbf43926. Mirrors
// wasm/src/smfem/asset/crc32.cpp; JS has no built-in.

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
    table[byte] = crc >>> 0;
  }
  return table;
})();

/**
 * CRC-32 of `bytes` as an unsigned 32-bit number. To checksum data in pieces, pass the
 * previous result as `crc`.
 * @param {Uint8Array} bytes
 * @param {number} [crc]
 * @returns {number}
 */
export function crc32(bytes, crc = 0) {
  crc = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) crc = TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}
