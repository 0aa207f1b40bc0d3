// The one colour rule. Output never carries the source's ICC profile, so pixels must already be
// sRGB: sharp imports an embedded profile (wide gamut, CMYK), and the 8-bit target
// interpretation drops 16-bit depth. Opaque greyscale stays one channel (smaller files, no
// colour cast); sharp's greyscale target drops alpha, so greyscale with alpha goes to sRGB.
//
// A CMYK JPEG without a profile is shown by every browser through a naive conversion (see
// browser-cmyk.ts), not through a press profile like libvips' built-in one (measured on a
// 1600 px photo stored that way: SSIM 0.949 against Chromium's decode through libvips' profile,
// 1.000 through this rule; colour swatches drift more). Those pixels are decoded here, oriented,
// and converted the browsers' way; the steps after this one work on the converted pixels, so
// EXIF and XMP kept on request (strip_metadata: false) do not survive for these sources.
import sharp from "sharp";
import type { SourceImage } from "./decode-limits.ts";
import { browserCmykToRgbInPlace } from "./browser-cmyk.ts";
import type { ImageStep } from "./image-step.ts";

export const toSrgb: ImageStep = async (work) => {
  if (convertsLikeBrowsers(work.source)) {
    const { data, info } = await work.image
      .pipelineColourspace("cmyk")
      .toColourspace("cmyk")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
    work.image = sharp(browserCmykToRgbInPlace(data), { raw: { width: info.width, height: info.height, channels: 3 } });
    return;
  }
  work.image.toColourspace(work.source.is_greyscale && !work.source.has_alpha ? "b-w" : "srgb");
};

function convertsLikeBrowsers(source: SourceImage): boolean {
  return source.format === "jpeg" && source.is_cmyk && !source.has_icc_profile;
}
