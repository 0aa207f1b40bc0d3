// What per-image choice saves, measured at equal quality (issue #25): a level's score is the same
// in every format, so q76 is not the fair comparison (WebP q76 scores about 68 on the median
// photo, JPEG q76 about 77). The fair one is the single fixed quality per format whose worst-decile
// score over the same images equals auto's worst decile; auto's total bytes against that one's.
import sharp from "sharp";
import type { EncoderKnob, EncoderOptions } from "../../origin/image/encode.ts";
import { encode } from "../../origin/image/encode.ts";
import type { RawImage } from "../../origin/quality/raw-image.ts";
import { prepareReference, scoreAgainst } from "../../origin/quality/ssimulacra2.ts";
import { worstDecile } from "./worst-decile.ts";

export type LossyFormat = "jpeg" | "webp" | "avif";

/**
 * The fixed qualities every image is encoded at; between two of them bytes and scores are
 * interpolated. It reaches down to q20: WebP answers some wallpapers at q26 to q31, where a ladder
 * starting at q40 made their exact landing its floor's bytes.
 */
export const FIXED_LADDER = [20, 26, 32, 40, 50, 56, 60, 64, 68, 72, 76, 80, 84, 88, 92, 96, 100] as const;

export interface LadderPoint {
  quality: number;
  bytes: number;
  score: number;
}

/** The image encoded at every fixed quality with the request's own encoder settings (and `knob`, auto's own: JPEG's table 5), each scored whole. */
export async function fixedLadder(reference: RawImage, format: LossyFormat, encoder: EncoderOptions, knob?: EncoderKnob): Promise<LadderPoint[]> {
  const prepared = prepareReference(reference);
  const raw = { raw: { width: reference.width, height: reference.height, channels: reference.channels } } as const;
  const points: LadderPoint[] = [];
  for (const quality of FIXED_LADDER) {
    const bytes = await encode(sharp(reference.data, raw), { format, lossless: false, quality, ...knob }, encoder);
    const decoded = await sharp(bytes).removeAlpha().raw().toBuffer();
    points.push({ quality, bytes: bytes.byteLength, score: scoreAgainst(prepared, { ...reference, channels: 3, data: new Uint8Array(decoded) }) });
  }
  return points;
}

export interface EqualQuality {
  /** Auto's worst-decile score over the images. */
  autoWorstDecile: number;
  /** The fixed quality (interpolated between ladder points) whose worst decile equals it; null when even q100's is lower. */
  quality: number | null;
  /** The fixed quality's total bytes over the images (interpolated likewise). */
  fixedBytes: number | null;
  /** The ladder's lowest quality already scores at or above auto: the equal quality is at most that, its bytes at most those. */
  atLadderFloor: boolean;
}

/** The fixed quality reaching auto's worst-decile score, and its total bytes; `ladders[i]` and `autoScores[i]` are one image. */
export function equalQuality(ladders: readonly LadderPoint[][], autoScores: readonly number[]): EqualQuality {
  const autoWorstDecile = worstDecile(autoScores);
  const decileAt = (index: number) => worstDecile(ladders.map((ladder) => ladder[index]!.score));
  const bytesAt = (index: number) => ladders.reduce((total, ladder) => total + ladder[index]!.bytes, 0);
  for (let index = 0; index < FIXED_LADDER.length; index++) {
    const decile = decileAt(index);
    if (decile < autoWorstDecile) continue;
    if (index === 0) return { autoWorstDecile, quality: FIXED_LADDER[0], fixedBytes: bytesAt(0), atLadderFloor: true };
    const lower = decileAt(index - 1);
    const t = decile > lower ? (autoWorstDecile - lower) / (decile - lower) : 1;
    return {
      autoWorstDecile,
      quality: FIXED_LADDER[index - 1]! + t * (FIXED_LADDER[index]! - FIXED_LADDER[index - 1]!),
      fixedBytes: bytesAt(index - 1) + t * (bytesAt(index) - bytesAt(index - 1)),
      atLadderFloor: false,
    };
  }
  return { autoWorstDecile, quality: null, fixedBytes: null, atLadderFloor: false };
}

/**
 * The bound on what choosing a quality per image can save at this encoder setting: each image at
 * the lowest quality (interpolated on its ladder) whose score reaches `target`, or its ladder's top
 * when none does, its total bytes against the fixed quality with the same worst-decile score.
 * `landingLadders` lands each image on another setting's ladder (auto JPEG's table 5) against the
 * same fixed quality: the bound at auto's own encoder setting.
 */
export function exactLandingRatio(ladders: readonly LadderPoint[][], target: number, landingLadders: readonly LadderPoint[][] = ladders): number | null {
  const landings = landingLadders.map((ladder) => {
    const index = ladder.findIndex((point) => point.score >= target);
    if (index <= 0) return index === 0 ? ladder[0]! : ladder[ladder.length - 1]!;
    const [below, above] = [ladder[index - 1]!, ladder[index]!];
    const t = (target - below.score) / (above.score - below.score);
    return { bytes: below.bytes + t * (above.bytes - below.bytes), score: target };
  });
  const equal = equalQuality(ladders, landings.map((landing) => landing.score));
  if (equal.fixedBytes === null) return null;
  return landings.reduce((total, landing) => total + landing.bytes, 0) / equal.fixedBytes;
}
