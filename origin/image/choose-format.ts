// What the output format is. By default (format: "source") the source's format
// family: one encode, and an email, CMS or print workflow gets back the kind of
// file it sent. format: "auto": content decides the candidates (transparency
// rules out JPEG; flat graphics go lossless, photos lossy at the requested
// quality), then every candidate is encoded and the smallest wins. An animation kept whole has one
// format that holds it here, WebP: a GIF source becomes animated WebP, and `auto` tries only WebP.
import type { ImageOptions, ImageOutputFormat, OutputChroma } from "../../contracts/image-options.ts";
import { gifFamily, SOURCE_FAMILY } from "../../contracts/image-source-family.ts";
import { ANIMATED_FORMAT } from "../../contracts/transform/output-format.ts";
import type { SourceFormat } from "./decode-limits.ts";
import type { EncodeTarget } from "./encode.ts";
import type { RenderedPixels } from "./pipeline.ts";
import type { ImageCandidate } from "../../contracts/origin/image-process.ts";

export type AlphaUse = "none" | "opaque" | "transparent";

export interface ContentProfile {
  alpha: AlphaUse;
  is_graphic: boolean;
}

// Sampling keeps the analysis cheap on 48 MP inputs; a flat graphic shows its
// few colours in any sample.
const MAX_SAMPLES = 250_000;
const PHOTO_DISTINCT_COLOURS = 4096;
const GRAPHIC_TOP_COLOURS = 256;
const GRAPHIC_COVERAGE = 0.9;

export function profileContent(pixels: RenderedPixels): ContentProfile {
  const { data, channels } = pixels;
  const count = pixels.width * pixels.height;
  return { alpha: alphaUse(data, channels, count), is_graphic: isFlatGraphic(data, channels, count) };
}

function alphaUse(data: Buffer, channels: number, count: number): AlphaUse {
  if (channels !== 2 && channels !== 4) return "none";
  for (let i = channels - 1; i < count * channels; i += channels) {
    if (data[i] !== 255) return "transparent";
  }
  return "opaque";
}

function isFlatGraphic(data: Buffer, channels: number, count: number): boolean {
  const stride = Math.max(1, Math.floor(count / MAX_SAMPLES));
  const colours = new Map<number, number>();
  let samples = 0;
  for (let p = 0; p < count; p += stride) {
    let key = 0;
    for (let c = 0; c < channels; c++) key = key * 256 + (data[p * channels + c] ?? 0);
    colours.set(key, (colours.get(key) ?? 0) + 1);
    samples++;
    if (colours.size > PHOTO_DISTINCT_COLOURS) return false;
  }
  const top = [...colours.values()].sort((a, b) => b - a).slice(0, GRAPHIC_TOP_COLOURS);
  return top.reduce((sum, n) => sum + n, 0) >= GRAPHIC_COVERAGE * samples;
}

/**
 * The one target of a request that is not `auto`: the named format (PNG lossless), or for `source` the source's family.
 * JPEG, WebP and AVIF stay lossy at `quality` (WebP lossless for a flat graphic, as `auto` would); PNG stays lossless
 * PNG. GIF has no encoder here: its palette graphics become lossless PNG. TIFF, a container for either: JPEG for an
 * opaque photo, lossless PNG for a flat graphic or with transparency. An animated GIF kept animated becomes WebP.
 */
export function requestedTarget(
  format: Exclude<ImageOptions["format"], "auto">,
  source: SourceFormat,
  profile: ContentProfile,
  quality: number,
  animated: boolean,
): EncodeTarget {
  const output = format === "source" ? sourceFamily(source, profile, animated) : format;
  const lossless = output === "png" || (format === "source" && output === "webp" && profile.is_graphic);
  return { format: output, lossless, quality };
}

function sourceFamily(source: SourceFormat, profile: ContentProfile, animated: boolean): ImageOutputFormat {
  const family = SOURCE_FAMILY[source];
  if (family) return family;
  if (source === "gif") return gifFamily(animated);
  return profile.is_graphic || profile.alpha === "transparent" ? "png" : "jpeg";
}

export function autoCandidates(profile: ContentProfile, quality: number, animated: boolean): EncodeTarget[] {
  const candidates = stillCandidates(profile, quality);
  return animated ? candidates.filter((target) => target.format === ANIMATED_FORMAT) : candidates;
}

function stillCandidates(profile: ContentProfile, quality: number): EncodeTarget[] {
  const lossy = (format: ImageOutputFormat): EncodeTarget => ({ format, lossless: false, quality });
  if (profile.is_graphic) {
    return [
      { format: "png", lossless: true, quality },
      { format: "webp", lossless: true, quality },
    ];
  }
  if (profile.alpha === "transparent") return [lossy("webp"), lossy("avif")];
  return [lossy("jpeg"), lossy("webp"), lossy("avif")];
}

export type CandidateOutcome = ImageCandidate;

/** One candidate encoded: its target (at the quality used), bytes, and what the encode cost. */
export interface EncodedCandidate {
  target: EncodeTarget;
  /** The chroma setting it was encoded with (null: the encoder's default). */
  chroma: OutputChroma | null;
  bytes: Uint8Array;
  /** SSIMULACRA 2 when auto quality searched it, else null. */
  score: number | null;
  encodes: number;
}

export interface ChosenFormat extends EncodedCandidate {
  candidates: CandidateOutcome[];
}

/** Encodes the candidates one after another (one output in memory at a time) and keeps the smallest. */
export async function chooseSmallest(
  candidates: EncodeTarget[],
  encodeCandidate: (target: EncodeTarget) => Promise<EncodedCandidate>,
): Promise<ChosenFormat> {
  let best: EncodedCandidate | null = null;
  let encodes = 0;
  const outcomes: CandidateOutcome[] = [];
  for (const target of candidates) {
    const encoded = await encodeCandidate(target);
    encodes += encoded.encodes;
    outcomes.push({
      format: target.format,
      lossless: target.lossless,
      output_bytes: encoded.bytes.byteLength,
      quality: target.lossless ? null : encoded.target.quality,
      score: encoded.score,
    });
    if (best === null || encoded.bytes.byteLength < best.bytes.byteLength) best = encoded;
  }
  if (best === null) throw new Error("chooseSmallest needs at least one candidate");
  return { ...best, encodes, candidates: outcomes };
}
