const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO 3309, as zlib and PNG use it) of bytes, or of a string's UTF-8. */
export function crc32(input: string | Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of typeof input === "string" ? new TextEncoder().encode(input) : input) crc = TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
