// Size targets (max_size_mb, max_base64_bytes): the highest image quality, then
// the highest resolution, whose output fits. Saving the document is the expensive
// step, so candidates are sized without saving: the output's non-image bytes (the
// "rest", measured by the last real save) plus the image streams encoded at the
// candidate, each image encoded once per step through the request's encode cache.
// Quality is searched first, from the profile's quality down to min_quality; only
// when min_quality does not fit is resolution lowered, down to the profile's floor.
import { PDF_BYTES_PER_MB } from "../../contracts/pdf-options.ts";
import type { PdfCompressOptions } from "../../contracts/pdf-options.ts";
import type { OutputRuns, ProducedOutput } from "./output-runs.ts";
import type { ImageTargets } from "./profiles.ts";

export interface SizeStep {
  quality: number;
  dpi: number;
}

export interface SizeSearchResult {
  step: SizeStep;
  estimatedBytes: number;
  fits: boolean;
}

export interface TargetSearchStats {
  quality: number;
  /** The resolution reached as a share of the profile's (1 when only quality was lowered). */
  resolution_scale: number;
  target_dpi: number;
  estimated_bytes: number;
  /** Image and soft-mask encodes of the whole request, the first run's included. */
  encodes: number;
  /** Full document saves of the whole request. */
  saves: number;
}

/** The byte budget of the request, or null without a target; base64 holds 3 bytes in every 4 characters. */
export function targetBytesOf(options: Pick<PdfCompressOptions, "max_size_mb" | "max_base64_bytes">): number | null {
  const limits: number[] = [];
  if (options.max_size_mb !== null) limits.push(Math.floor(options.max_size_mb * PDF_BYTES_PER_MB));
  if (options.max_base64_bytes !== null) limits.push(Math.floor(options.max_base64_bytes / 4) * 3);
  return limits.length === 0 ? null : Math.min(...limits);
}

/** The targets of one step. Below the profile's resolution every image above the step is resampled: the target, not the saving, decides. */
export function stepTargets(base: ImageTargets, step: SizeStep): ImageTargets {
  if (step.dpi >= base.targetDpi) return { ...base, quality: step.quality };
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

/** Searches steps by their estimated size; when nothing fits, the smallest step (min quality at the floor) comes back unfitting. */
export async function searchSizeStep(base: ImageTargets, minQuality: number, targetBytes: number, estimate: (step: SizeStep) => Promise<number>): Promise<SizeSearchResult> {
  const lowestQuality = Math.min(minQuality, base.quality);
  const at = async (step: SizeStep): Promise<SizeSearchResult> => {
    const estimatedBytes = await estimate(step);
    return { step, estimatedBytes, fits: estimatedBytes <= targetBytes };
  };
  const top = await at({ quality: base.quality, dpi: base.targetDpi });
  if (top.fits) return top;
  const lowQuality = await at({ quality: lowestQuality, dpi: base.targetDpi });
  if (lowQuality.fits) return highestFitting(lowestQuality, base.quality, (quality) => at({ quality, dpi: base.targetDpi }), lowQuality);
  const floor = await at({ quality: lowestQuality, dpi: base.floorDpi });
  if (!floor.fits) return floor;
  return highestFitting(base.floorDpi, base.targetDpi, (dpi) => at({ quality: lowestQuality, dpi }), floor);
}

// A real save can land above its estimate (object streams compress differently):
// the rest is measured again from that save and the search repeated, this often at most.
const MAX_CORRECTIONS = 2;

export interface SizeTargetOutcome {
  output: ProducedOutput;
  search: TargetSearchStats;
}

/** Returns a first output within the target as it is; brings one over it under the target when possible, else to the smallest the search reaches. */
export async function meetSizeTarget(runs: OutputRuns, first: ProducedOutput, base: ImageTargets, minQuality: number, targetBytes: number): Promise<SizeTargetOutcome> {
  let best = first;
  let chosen: SizeSearchResult = { step: { quality: base.quality, dpi: base.targetDpi }, estimatedBytes: first.bytes.byteLength, fits: first.bytes.byteLength <= targetBytes };
  let measured = first;
  for (let attempt = 0; attempt <= MAX_CORRECTIONS && best.bytes.byteLength > targetBytes; attempt++) {
    const rest = measured.bytes.byteLength - measured.rewrites.imageBytes;
    const search = await runs.sizer((imageBytesAt) => searchSizeStep(base, minQuality, targetBytes, async (step) => rest + (await imageBytesAt(stepTargets(base, step)))));
    const sameAsMeasured = search.step.quality === measured.targets.quality && stepTargets(base, search.step).targetDpi === measured.targets.targetDpi;
    // Nothing left to gain (no image reacts, or the step is the one just saved): no save.
    if (sameAsMeasured || search.estimatedBytes >= measured.bytes.byteLength) break;
    measured = await runs.again(stepTargets(base, search.step));
    if (measured.bytes.byteLength < best.bytes.byteLength) {
      best = measured;
      chosen = search;
    }
    if (!search.fits) break;
  }
  const targets = best.targets;
  return {
    output: best,
    search: {
      quality: targets.quality,
      resolution_scale: targets.targetDpi / base.targetDpi,
      target_dpi: targets.targetDpi,
      estimated_bytes: chosen.estimatedBytes,
      encodes: runs.cache.encodes,
      saves: runs.saves,
    },
  };
}
