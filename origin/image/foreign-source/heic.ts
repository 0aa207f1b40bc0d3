// HEIC (HEVC in HEIF): what phones write. sharp's prebuilt libvips reads the HEIF container but has
// no HEVC decoder. Debian's native libheif (package libheif-examples, which the origin's image and
// CI install) decodes it when present; without it the origin keeps libheif in WebAssembly, slower
// but dependency-free, and says so once at start. PIXELPRESS_HEIC_DECODER=wasm forces that one.
// A phone's grid goes to ffmpeg's HEVC decoder when it runs (heic-native.ts). Either way the
// container's rotation and mirroring are applied (a phone's EXIF orientation only repeats them) and
// the pixels leave as a PNG with the file's ICC profile, at half size when the output needs no more.
import { heicTools, nativeHeicToPng, nativeHeifConvertPresent, type DecodedHeic } from "./heic-native.ts";
import type { RasterTarget } from "./raster-target.ts";
import { wasmHeicToPng } from "./heic-wasm.ts";

export type HeicDecoder = "native" | "wasm";

export function chooseHeicDecoder(env: NodeJS.ProcessEnv = process.env): HeicDecoder {
  if (env["PIXELPRESS_HEIC_DECODER"] === "wasm") return "wasm";
  return nativeHeifConvertPresent(env) ? "native" : "wasm";
}

const decoder = chooseHeicDecoder();
if (decoder === "wasm") {
  console.warn("HEIC: heif-convert (Debian package libheif-examples) is not used; HEIC decodes in WebAssembly, several times slower.");
} else if (heicTools().ffmpeg === null) {
  console.warn("HEIC: ffmpeg (Debian package ffmpeg) is not found; a phone's grid HEIC decodes through heif-convert, about a third more CPU.");
}

/** `target` may let the native decoder deliver the picture at half its size (heic-native.ts). */
export async function heicToPng(bytes: Uint8Array, maxPixels: number, target: RasterTarget): Promise<DecodedHeic> {
  return decoder === "native" ? nativeHeicToPng(bytes, maxPixels, target) : { png: await wasmHeicToPng(bytes, maxPixels), halvedFrom: null };
}
