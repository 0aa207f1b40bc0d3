// Wraps raw CMYK samples in a minimal uncompressed TIFF, the one container sharp
// reads as CMYK (raw input with four channels would be taken for RGBA).
import type { RawPixels } from "./raw-pixels.ts";

const TIFF_SHORT = 3;
const TIFF_LONG = 4;
const PHOTOMETRIC_SEPARATED = 5;
const INKSET_CMYK = 1;

export function cmykTiff(pixels: RawPixels): Uint8Array {
  const { data, width, height } = pixels;
  // [tag, type, value]; BitsPerSample (258) and StripOffsets (273) point past the IFD.
  const entries: [number, number, number][] = [
    [256, TIFF_LONG, width],
    [257, TIFF_LONG, height],
    [258, TIFF_SHORT, 0],
    [259, TIFF_SHORT, 1],
    [262, TIFF_SHORT, PHOTOMETRIC_SEPARATED],
    [273, TIFF_LONG, 0],
    [277, TIFF_SHORT, 4],
    [278, TIFF_LONG, height],
    [279, TIFF_LONG, data.byteLength],
    [284, TIFF_SHORT, 1],
    [332, TIFF_SHORT, INKSET_CMYK],
  ];
  const ifdOffset = 8;
  const bitsOffset = ifdOffset + 2 + entries.length * 12 + 4;
  const dataOffset = bitsOffset + 8;
  const out = new Uint8Array(dataOffset + data.byteLength);
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49, 42, 0]);
  view.setUint32(4, ifdOffset, true);
  view.setUint16(ifdOffset, entries.length, true);
  entries.forEach(([tag, type, value], index) => {
    const at = ifdOffset + 2 + index * 12;
    const count = tag === 258 ? 4 : 1;
    const resolved = tag === 258 ? bitsOffset : tag === 273 ? dataOffset : value;
    view.setUint16(at, tag, true);
    view.setUint16(at + 2, type, true);
    view.setUint32(at + 4, count, true);
    if (type === TIFF_SHORT && count === 1) view.setUint16(at + 8, resolved, true);
    else view.setUint32(at + 8, resolved, true);
  });
  for (let channel = 0; channel < 4; channel++) view.setUint16(bitsOffset + channel * 2, 8, true);
  out.set(data, dataOffset);
  return out;
}
