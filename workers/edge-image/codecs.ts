/// <reference path="./wasm-modules.d.ts" />
/// <reference path="./image-data.d.ts" />
// The jSquash codecs, wired to precompiled modules. The Emscripten codecs (JPEG, WebP, AVIF)
// get a fresh instance per call: WASM memory only grows, so an instance reused across requests
// would keep the largest image it ever saw; a dropped one is garbage. The wasm-bindgen codecs
// (PNG, resize) keep one instance per isolate, because their glue cannot be re-initialised; the
// edge budget bounds what they can grow to.
import encodeAvif, { init as initAvifEncode } from "@jsquash/avif/encode.js";
import decodeJpeg, { init as initJpegDecode } from "@jsquash/jpeg/decode.js";
import encodeJpeg, { init as initJpegEncode } from "@jsquash/jpeg/encode.js";
import decodePng, { init as initPng } from "@jsquash/png/decode.js";
import encodePng from "@jsquash/png/encode.js";
import resize, { initResize } from "@jsquash/resize";
import decodeWebp, { init as initWebpDecode } from "@jsquash/webp/decode.js";
import encodeWebp, { init as initWebpEncode } from "@jsquash/webp/encode.js";
import avifEncWasm from "@jsquash/avif/codec/enc/avif_enc.wasm?module";
import jpegDecWasm from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm?module";
import jpegEncWasm from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm?module";
import pngWasm from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm?module";
import resizeWasm from "@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm?module";
import webpDecWasm from "@jsquash/webp/codec/dec/webp_dec.wasm?module";
import webpEncWasm from "@jsquash/webp/codec/enc/webp_enc_simd.wasm?module";
import { encoderQuality } from "../../contracts/encoder-quality.ts";
import type { OutputFormat } from "../../contracts/transform/token-values.ts";
import type { EdgeSourceFormat } from "../../contracts/limits/edge-budget.ts";

export interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export async function decodePixels(format: EdgeSourceFormat, bytes: Uint8Array): Promise<Pixels> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  switch (format) {
    case "jpeg":
      await initJpegDecode(jpegDecWasm);
      return decodeJpeg(buffer, { preserveOrientation: true });
    case "webp":
      await initWebpDecode(webpDecWasm);
      return decodeWebp(buffer);
    case "png":
      await initPng(pngWasm);
      return decodePng(buffer);
  }
}

// jSquash's resize builds an ImageData, which workerd lacks; the decoders above install a
// polyfill, so this runs only after a decode (the pipeline always decodes first).
export async function resizePixels(pixels: Pixels, width: number, height: number): Promise<Pixels> {
  await initResize(resizeWasm);
  // Linear-light resampling with premultiplied alpha quadruples the resize memory (see
  // RUNTIME-NOTES); triangle costs a fifth of lanczos3's CPU and looks the same on downscales.
  return resize(pixels, { width, height, method: "triangle", premultiply: false, linearRGB: false, fitMethod: "stretch" });
}

/** `quality` is the requested one; contracts/encoder-quality.ts says what it means to each codec. */
export async function encodePixels(format: OutputFormat, pixels: Pixels, quality: number): Promise<Uint8Array> {
  switch (format) {
    case "jpeg":
      await initJpegEncode(jpegEncWasm);
      // 4:2:0 at every quality, as the origin encodes: jSquash's auto_subsample switches to 4:4:4
      // from q90, which nearly doubled the bytes of a q90 photo against the origin's.
      return new Uint8Array(
        await encodeJpeg(pixels, { quality: encoderQuality("jsquash", format, quality), progressive: false, baseline: true, auto_subsample: false, chroma_subsample: 2 }),
      );
    case "webp":
      await initWebpEncode(webpEncWasm);
      return new Uint8Array(await encodeWebp(pixels, { quality: encoderQuality("jsquash", format, quality) }));
    case "avif":
      await initAvifEncode(avifEncWasm);
      return new Uint8Array(await encodeAvif(pixels, { quality: encoderQuality("jsquash", format, quality), speed: 8 }));
    case "png":
      await initPng(pngWasm);
      return new Uint8Array(await encodePng(pixels));
  }
}
