// Size targets (max_size_mb, max_base64_bytes): the highest image quality, then
// the highest resolution, whose output fits. Saving the document is the expensive
// step, so candidates are sized without saving: the output's non-image bytes (the
// "rest", measured by the last real save) plus the image streams encoded at the
// candidate, each image encoded once per step through the request's encode cache.
// Quality is searched first, from the profile's quality down to min_quality and never
// below it; only when min_quality does not fit is resolution lowered, down to the
// profile's floor. Under a perceptual floor the searched quality is a ceiling: each image
// takes the lower of its floor's quality and it, and the search starts from the highest
// quality the first output (the floor's) used, since a ceiling above it changes nothing.
import { PDF_BYTES_PER_MB } from "../../contracts/pdf-options.ts";
import type { PdfCompressOptions } from "../../contracts/pdf-options.ts";
import type { OutputRuns, ProducedOutput } from "./output-runs.ts";
import type { ImageTargets } from "./profiles.ts";
import type { PdfTargetSearch } from "../../contracts/origin/pdf-compress.ts";

export interface SizeStep {
  quality: number;
  dpi: number;
}

export interface SizeSearchResult {
  step: SizeStep;
  estimatedBytes: number;
  fits: boolean;
}

export type TargetSearchStats = PdfTargetSearch;

/** The byte budget of the request, or null without a target; base64 holds 3 bytes in every 4 characters. */
export function targetBytesOf(options: Pick<PdfCompressOptions, "max_size_mb" | "max_base64_bytes">): number | null {
  const limits: number[] = [];
  if (options.max_size_mb !== null) limits.push(Math.floor(options.max_size_mb * PDF_BYTES_PER_MB));
  if (options.max_base64_bytes !== null) limits.push(Math.floor(options.max_base64_bytes / 4) * 3);
  return limits.length === 0 ? null : Math.min(...limits);
}

/**
 * The targets of one step. At `topDpi` (see resolutionCeiling) or above, the profile's own resolution; below it every
 * image above the step is resampled: the target, not the saving, decides.
 */
export function stepTargets(base: ImageTargets, step: SizeStep, topDpi = base.targetDpi): ImageTargets {
  if (step.dpi >= topDpi) return { ...base, quality: step.quality };
  return { ...base, quality: step.quality, targetDpi: step.dpi, downsampleThreshold: 1 };
}

/** The highest value in (fits, fails) that fits, by bisection; estimates are taken as monotone. */
async function highestFitting(fits: number, fails: number, probe: (value: number) => Promise<SizeSearchResult>, best: SizeSearchResult): Promise<SizeSearchResult> {
  let low = fits;
  let high = fails;
  let found = best;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const result = await probe(middle);
    if (result.fits) {
      low = middle;
      found = result;
    } else {
      high = middle;
    }
  }
  return found;
}

/**
 * Searches steps by their estimated size, never below `minQuality` (a profile quality under it is raised to it); when
 * nothing fits, the smallest step (min quality at the floor) comes back unfitting.
 */
export async function searchSizeStep(
  base: ImageTargets,
  minQuality: number,
  targetBytes: number,
  estimate: (step: SizeStep) => Promise<number>,
  topDpi = base.targetDpi,
): Promise<SizeSearchResult> {
  const highestQuality = Math.max(base.quality, minQuality);
  const at = async (step: SizeStep): Promise<SizeSearchResult> => {
    const estimatedBytes = await estimate(step);
    return { step, estimatedBytes, fits: estimatedBytes <= targetBytes };
  };
  const top = await at({ quality: highestQuality, dpi: topDpi });
  if (top.fits) return top;
  if (highestQuality > minQuality) {
    const lowQuality = await at({ quality: minQuality, dpi: topDpi });
    if (lowQuality.fits) return highestFitting(minQuality, highestQuality, (quality) => at({ quality, dpi: topDpi }), lowQuality);
  }
  const floor = await at({ quality: minQuality, dpi: base.floorDpi });
  if (!floor.fits) return floor;
  return highestFitting(base.floorDpi, topDpi, (dpi) => at({ quality: minQuality, dpi }), floor);
}

/**
 * Where the resolution search starts: the profile's resolution, or, without one (`custom` without `max_dpi`), the
 * highest resolution an image of the first output is placed at, above which lowering changes nothing.
 */
export function resolutionCeiling(base: ImageTargets, first: ProducedOutput): number {
  if (Number.isFinite(base.targetDpi)) return base.targetDpi;
  const placed = first.rewrites.stats.map((image) => image.before.dpi ?? 0);
  return Math.max(base.floorDpi, Math.ceil(Math.max(0, ...placed)));
}

// A real save can land above its estimate (object streams compress differently):
// the rest is measured again from that save and the search repeated, this often at most.
const MAX_CORRECTIONS = 2;

export interface SizeTargetOutcome {
  output: ProducedOutput;
  search: TargetSearchStats;
}

function highestQualityUsed(output: ProducedOutput, minQuality: number): number {
  const qualities = output.rewrites.stats.map((image) => image.after?.quality ?? 0);
  return Math.max(minQuality, ...qualities);
}

/** Returns a first output within the target as it is; brings one over it under the target when possible, else to the smallest the search reaches. */
export async function meetSizeTarget(runs: OutputRuns, first: ProducedOutput, profileTargets: ImageTargets, minQuality: number, targetBytes: number): Promise<SizeTargetOutcome> {
  const base = profileTargets.perceptualFloor === null ? profileTargets : { ...profileTargets, quality: highestQualityUsed(first, minQuality) };
  const topDpi = resolutionCeiling(base, first);
  let best = first;
  let chosen: SizeSearchResult = { step: { quality: base.quality, dpi: topDpi }, estimatedBytes: first.bytes.byteLength, fits: first.bytes.byteLength <= targetBytes };
  let measured = first;
  for (let attempt = 0; attempt <= MAX_CORRECTIONS && best.bytes.byteLength > targetBytes; attempt++) {
    const rest = measured.bytes.byteLength - measured.rewrites.imageBytes;
    const search = await runs.sizer((imageBytesAt) =>
      searchSizeStep(base, minQuality, targetBytes, async (step) => rest + (await imageBytesAt(stepTargets(base, step, topDpi))), topDpi),
    );
    const searchTargets = stepTargets(base, search.step, topDpi);
    const sameAsMeasured = search.step.quality === measured.targets.quality && searchTargets.targetDpi === measured.targets.targetDpi;
    // Nothing left to gain (no image reacts, or the step is the one just saved): no save.
    if (sameAsMeasured || search.estimatedBytes >= measured.bytes.byteLength) break;
    measured = await runs.again(searchTargets);
    if (measured.bytes.byteLength < best.bytes.byteLength) {
      best = measured;
      chosen = search;
    }
    if (!search.fits) break;
  }
  const targetDpi = Math.min(best.targets.targetDpi, topDpi);
  return {
    output: best,
    search: {
      // Under a floor the first output's "quality" is the ceiling it never reached.
      quality: Math.min(best.targets.quality, base.quality),
      resolution_scale: targetDpi / topDpi,
      target_dpi: targetDpi,
      estimated_bytes: chosen.estimatedBytes,
      encodes: runs.cache.encodes,
      saves: runs.saves,
    },
  };
}
