// JPEG XL, decoded by libjxl compiled to WebAssembly (@jsquash/jxl). The decoder hands back sRGB
// (it applies the file's colour encoding itself), so the pixels go on as an untagged PNG.
import decodeJxl, { init } from "@jsquash/jxl/decode.js";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { wasmFromDisk } from "../../wasm/wasm-from-disk.ts";
import { jxlSize } from "./jxl-size.ts";
import { pngWithProfile } from "./png-with-profile.ts";

let decoder: Promise<unknown> | undefined;

/** The decoder, started once per process. */
function ready(): Promise<unknown> {
  decoder ??= init(wasmFromDisk("@jsquash/jxl/codec/dec/jxl_dec.wasm"));
  return decoder;
}

export async function jxlToPng(bytes: Uint8Array, maxPixels: number): Promise<Uint8Array> {
  const size = jxlSize(bytes);
  if (!size) throw new ProblemError("image_unreadable", "The JPEG XL image has no readable header.");
  if (size.width * size.height > maxPixels) {
    throw new ProblemError("image_too_large", `The image is ${size.width}x${size.height}; the limit is ${maxPixels} pixels.`, {
      extensions: { limit_pixels: maxPixels },
    });
  }
  await ready();
  let pixels;
  try {
    pixels = await decodeJxl(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  } catch (error) {
    throw new ProblemError("image_unreadable", `The JPEG XL image cannot be decoded: ${error instanceof Error ? error.message : String(error)}.`);
  }
  return pngWithProfile(pixels, null);
}
