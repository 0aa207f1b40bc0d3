// Each ANMF chunk of an animated WebP: its frame size and duration, read from the container
// (no decoder for animated WebP runs in workerd). A still WebP has none.
export function webpFrames(bytes: Uint8Array): { width: number; height: number; duration: number }[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const uint24 = (at: number) => view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getUint8(at + 2) << 16);
  const frames = [];
  for (let at = 12; at + 8 <= bytes.byteLength; ) {
    const fourcc = String.fromCharCode(...bytes.subarray(at, at + 4));
    const size = view.getUint32(at + 4, true);
    if (fourcc === "ANMF") frames.push({ width: uint24(at + 14) + 1, height: uint24(at + 17) + 1, duration: uint24(at + 20) });
    at += 8 + size + (size % 2);
  }
  return frames;
}
