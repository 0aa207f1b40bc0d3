// HEIC where the native libheif tool is absent (heic.ts chooses): libheif compiled to WebAssembly,
// several times slower than the native one (no SIMD, no threads). libheif applies the container's
// rotation and mirroring itself (the EXIF orientation a phone also writes only repeats them), and
// the pixels leave here as a PNG with the file's ICC profile, so the rest of the pipeline sees an
// upright, tagged image like any other.
/// <reference path="./heic-decode.d.ts" />
import type decodeHeifModule from "heic-decode";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { heifIccProfile } from "./heif-colour-profile.ts";
import { pngWithProfile } from "./png-with-profile.ts";

export async function wasmHeicToPng(bytes: Uint8Array, maxPixels: number): Promise<Uint8Array> {
  // Loaded on first use: most origins have the native tool and never need its WebAssembly heap.
  const decodeHeif: typeof decodeHeifModule = (await import("heic-decode")).default;
  let images: Awaited<ReturnType<typeof decodeHeif.all>>;
  try {
    images = await decodeHeif.all({ buffer: bytes });
  } catch (error) {
    throw new ProblemError("image_unreadable", `The HEIC image cannot be read: ${error instanceof Error ? error.message : String(error)}.`);
  }
  try {
    // The first top-level image is the primary one; the others are a burst's or a depth map's.
    const primary = images[0];
    if (!primary) throw new ProblemError("image_unreadable", "The HEIC file holds no image.");
    // Refused from the header, before libheif allocates a pixel.
    if (primary.width * primary.height > maxPixels) {
      throw new ProblemError("image_too_large", `The image is ${primary.width}x${primary.height}; the limit is ${maxPixels} pixels.`, {
        extensions: { limit_pixels: maxPixels },
      });
    }
    let pixels;
    try {
      pixels = await primary.decode();
    } catch (error) {
      throw new ProblemError("image_unreadable", `The HEIC image cannot be decoded: ${error instanceof Error ? error.message : String(error)}.`);
    }
    return await pngWithProfile(pixels, heifIccProfile(bytes));
  } finally {
    images.dispose();
  }
}
