// The origin transform's step list: orientation and colour first, then each token's step in the
// order the registry declares (TRANSFORM_STEPS), then the flattening the output format needs.
import type { z } from "@hono/zod-openapi";
import type { originTransformSchema } from "../../contracts/origin/image-transform.ts";
import { TRANSFORM_STEPS, type TransformStepName } from "../../contracts/transform/registry.ts";
import type { ImageOutputFormat } from "../../contracts/image-options.ts";
import { autoOrient } from "./auto-orient.ts";
import { blur } from "./blur.ts";
import { brightness } from "./brightness.ts";
import { contrast } from "./contrast.ts";
import { crop } from "./crop.ts";
import { facesStep } from "./faces/faces-step.ts";
import type { FaceSearch } from "./faces/face-search.ts";
import type { SourceImage } from "./decode-limits.ts";
import { fitBox, type Padding } from "./fit-box.ts";
import { flatten, formatHasAlpha } from "./flatten.ts";
import type { ImageStep } from "./image-step.ts";
import { flip } from "./flip.ts";
import { gamma } from "./gamma.ts";
import { saturation } from "./saturation.ts";
import { overlay } from "./overlay.ts";
import { rotate } from "./rotate.ts";
import { sharpen } from "./sharpen.ts";
import { textOverlay } from "./text/text-overlay.ts";
import { toSrgb } from "./to-srgb.ts";
import { trim } from "./trim.ts";

export type TransformOptions = z.output<typeof originTransformSchema>;

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

// bg_: an opaque colour for the padding; without it, transparent where the format keeps alpha, else white.
function paddingOf(background: string | undefined, format: ImageOutputFormat): Padding {
  if (background === undefined) return formatHasAlpha(format) ? TRANSPARENT : WHITE;
  const channel = (at: number) => Number.parseInt(background.slice(at, at + 2), 16);
  return { r: channel(0), g: channel(2), b: channel(4), alpha: 1 };
}

// The step applying each token's work, by the name its registry declaration gives (TRANSFORM_STEPS
// orders them): a name without a step here fails to typecheck.
const tokenSteps: Record<TransformStepName, (options: TransformOptions, format: ImageOutputFormat, overlayBytes: Uint8Array | null, faces: FaceSearch | null) => ImageStep> = {
  crop: (options) => crop(options.crop),
  trim: (options) => trim(options.trim),
  rotate: (options) => rotate(options.rotate),
  flip: (options) => flip(options.flip, options.rotate),
  faces: (options, _format, _overlayBytes, faces) => (faces === null ? () => undefined : facesStep(options, faces)),
  brightness: (options) => brightness(options.brightness),
  contrast: (options) => contrast(options.contrast),
  saturation: (options) => saturation(options.saturation),
  gamma: (options) => gamma(options.gamma),
  fit: (options, format, _overlayBytes, faces) => fitBox(options, paddingOf(options.background, format), faces),
  blur: (options) => blur(options.blur),
  sharpen: (options) => sharpen(options.sharpen),
  // One l_ token: a file's image or a line of text.
  overlay: (options, _format, overlayBytes) => (options.text_overlay === undefined ? overlay(options.overlay, overlayBytes) : textOverlay(options.text_overlay)),
};

/** `overlayBytes`: the overlay file's bytes when the options name one (l_); `faces`: the call's face search, for the face tokens. */
export function transformSteps(options: TransformOptions, source: SourceImage, format: ImageOutputFormat, overlayBytes: Uint8Array | null = null, faces: FaceSearch | null = null): ImageStep[] {
  return [
    autoOrient(true),
    toSrgb,
    ...TRANSFORM_STEPS.map((name) => tokenSteps[name](options, format, overlayBytes, faces)),
    flatten(source.has_alpha ? "transparent" : "none", format, options.background === undefined ? null : `#${options.background}`),
  ];
}
