// An overlay (transform `l_`): another image of the account drawn over the output, a watermark.
// It runs after the resize, blur and sharpen, so it is sized against the output and never
// blurred with it. sharp composites at the end of its pipeline whatever the call order, so the
// picture so far is rendered first: its size is then known, and the flattening and encoding after
// this step see the overlay in place. An animation gets the overlay on every frame.
import sharp from "sharp";
import type { OverlayGravity } from "../../contracts/transform/token-values.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { autoOrient } from "./auto-orient.ts";
import { runSteps, type ImageStep } from "./image-step.ts";
import { openOriginal } from "./open-original.ts";
import { toSrgb } from "./to-srgb.ts";

export interface OverlaySpec {
  file_id: string;
  gravity: OverlayGravity;
  /** Percent of the output's width; undefined keeps the overlay's own size, shrunk to fit. */
  width?: number | undefined;
  /** Percent, 1 to 100. */
  opacity: number;
}

export interface Size {
  width: number;
  height: number;
}

/** What an overlay draws: RGBA pixels at their drawn size, their alpha already scaled by the opacity. */
export interface Mark extends Size {
  rgba: Buffer;
}

/** Where the overlay's top-left corner goes in a frame of `frame`'s size. */
export function overlayOffset(gravity: OverlayGravity, frame: Size, mark: Size): { left: number; top: number } {
  const across = { start: 0, middle: Math.floor((frame.width - mark.width) / 2), end: frame.width - mark.width };
  const down = { start: 0, middle: Math.floor((frame.height - mark.height) / 2), end: frame.height - mark.height };
  const left = gravity.endsWith("west") ? across.start : gravity.endsWith("east") ? across.end : across.middle;
  const top = gravity.startsWith("north") ? down.start : gravity.startsWith("south") ? down.end : down.middle;
  return { left, top };
}

/** The overlay as RGBA pixels at its drawn size, its alpha scaled by the opacity. */
async function markPixels(bytes: Uint8Array, spec: OverlaySpec, frame: Size): Promise<Mark> {
  const width = spec.width === undefined ? undefined : Math.max(1, Math.round((frame.width * spec.width) / 100));
  let rendered;
  try {
    // An SVG overlay is drawn at the width it will have, not enlarged after.
    const { input, source } = await openOriginal(bytes, width === undefined ? {} : { width, whole: true });
    const { image } = await runSteps(input, source, [autoOrient(true), toSrgb]);
    rendered = await image
      .toColourspace("srgb")
      .ensureAlpha()
      .resize({ width: width ?? frame.width, height: frame.height, fit: "inside", withoutEnlargement: width === undefined })
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    const token = `l_${spec.file_id}`;
    throw new ProblemError("overlay_unavailable", `The overlay ${token} cannot be drawn: ${error.message}`, { errors: [{ pointer: `/transform/${token}`, detail: error.message }] });
  }
  return faded(rendered.data, rendered.info, spec.opacity);
}

/** RGBA pixels as a mark, their alpha scaled by `opacity` percent. */
export function faded(rgba: Buffer, size: Size, opacity: number): Mark {
  if (opacity < 100) for (let i = 3; i < rgba.length; i += 4) rgba[i] = Math.round((rgba[i]! * opacity) / 100);
  return { rgba, width: size.width, height: size.height };
}

export function overlay(spec: OverlaySpec | undefined, bytes: Uint8Array | null): ImageStep {
  if (spec === undefined) return function overlayStep() {};
  if (bytes === null) throw new Error("the transform asks for an overlay but its bytes were not sent");
  return drawOverlay(spec.gravity, (frame) => markPixels(bytes, spec, frame));
}

/** The step that draws `markFor`'s mark, made for the picture's frame size, at `gravity` on every frame. */
export function drawOverlay(gravity: OverlayGravity, markFor: (frame: Size) => Promise<Mark>): ImageStep {
  return async function overlayStep(work) {
    const frames = work.animation?.frames ?? 1;
    const { data, info } = await work.image.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
    const frame = { width: info.width, height: info.height / frames };
    const mark = await markFor(frame);
    const { left, top } = overlayOffset(gravity, frame, mark);
    const raw = { width: mark.width, height: mark.height, channels: 4 } as const;
    const layers = Array.from({ length: frames }, (_, i) => ({ input: mark.rgba, raw, left, top: i * frame.height + top }));
    let drawn = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).composite(layers);
    // An opaque picture stays opaque: the overlay's alpha only blends.
    if (info.channels === 1 || info.channels === 3) drawn = drawn.removeAlpha();
    const out = await drawn.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
    if (work.animation === null) {
      work.image = sharp(out.data, { raw: { width: out.info.width, height: out.info.height, channels: out.info.channels } });
      return;
    }
    // As eachFrame (image-step.ts) does: the stacked frames become an animation again for the steps after.
    const stacked = sharp(out.data, { raw: { width: out.info.width, height: out.info.height, channels: out.info.channels, pageHeight: frame.height } });
    work.image = sharp(await stacked.webp({ lossless: true, exact: true, effort: 0 }).toBuffer(), { animated: true });
  };
}
