// One PNG chunk as the PNG specification frames it: its length, its type, its data and a CRC-32 of
// type and data. The profile-tagged PNG (foreign-source/png-with-profile.ts) and the APNG handed to
// ffmpeg (video/apng-stream.ts) write their chunks through it.
import { crc32 } from "node:zlib";

export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.byteLength);
  out.set(Buffer.from(type, "latin1"), 4);
  out.set(data, 8);
  view.setUint32(8 + data.byteLength, crc32(out.subarray(4, 8 + data.byteLength)));
  return out;
}
