// One transform call's faces, found once: on the picture as `crop_`, `trim_`, `r_` and `fl_` shape
// it (what a face gravity crops and an effect changes), remembered by the process across calls,
// keyed by the source's SHA-256 and those tokens, so several transforms of one file version detect
// once (docs/architecture.md says why the memo is here).
import { createHash } from "node:crypto";
import { FACE_GRAVITIES, focalValue } from "../../../contracts/transform/token-values.ts";
import { openSource } from "../decode-limits.ts";
import { renderNow, type ImageWork } from "../image-step.ts";
import type { z } from "@hono/zod-openapi";
import type { originTransformSchema } from "../../../contracts/origin/image-transform.ts";
import { detectFaces, type DetectedFace } from "./face-detector.ts";

/** The transform call's options (transform-steps.ts names the same type; importing it would close a cycle). */
export type CallOptions = z.output<typeof originTransformSchema>;

// A detection is a few boxes: thousands of file versions cost well under a megabyte.
const REMEMBERED = 4096;
const remembered = new Map<string, Promise<DetectedFace[]>>();

function rememberedFaces(key: string, detect: () => Promise<DetectedFace[]>): Promise<DetectedFace[]> {
  const known = remembered.get(key);
  if (known !== undefined) {
    // Least recently used goes first: a hit moves to the end.
    remembered.delete(key);
    remembered.set(key, known);
    return known;
  }
  const found = detect();
  remembered.set(key, found);
  found.catch(() => remembered.delete(key));
  if (remembered.size > REMEMBERED) remembered.delete(remembered.keys().next().value!);
  return found;
}

export interface FaceSearch {
  /** Finds the faces of the still picture `work` holds now (once per call), as fractions of work.upright. */
  search(work: ImageWork): Promise<DetectedFace[]>;
  /** What search found, null before it ran. */
  readonly found: DetectedFace[] | null;
  /** The faces of the upright source, as fractions of its upright size (what f_json reports). */
  sourceFaces(): Promise<DetectedFace[]>;
}

/** Whether the call's tokens need the faces: a face gravity, or an effect on faces. */
export function needsFaces(options: Pick<CallOptions, "gravity" | "effect">): boolean {
  return options.effect !== undefined || FACE_GRAVITIES.includes(options.gravity);
}

/** `input`: the source's bytes as the steps open them. */
export function faceSearch(input: Uint8Array, options: CallOptions): FaceSearch {
  // Hashed only when a token asks for faces: most transforms never do.
  let digested: string | null = null;
  const digest = () => (digested ??= createHash("sha256").update(input).digest("hex"));
  const shaping = [options.crop, options.trim, options.rotate, options.flip];
  const shaped = shaping.some((token) => token !== undefined && token !== 0);
  // Without shaping tokens the picture is the upright source, which shrinks on load.
  const fromSource = () => rememberedFaces(digest(), () => detectFaces(openSource(input).autoOrient()));
  let found: DetectedFace[] | null = null;
  return {
    get found() {
      return found;
    },
    async search(work) {
      if (found !== null) return found;
      found = await (shaped
        ? rememberedFaces(`${digest()}:${JSON.stringify(shaping)}`, async () => {
            await renderNow(work, (image) => image);
            return detectFaces(work.image.clone());
          })
        : fromSource());
      return found;
    },
    sourceFaces: fromSource,
  };
}

/** The gravity the crop applied, as f_json reports it: the faces' when some placed it. */
export function appliedGravity(options: Pick<CallOptions, "gravity" | "focus">, found: DetectedFace[] | null): string {
  if (options.focus !== undefined) return focalValue(options.focus);
  if (!FACE_GRAVITIES.includes(options.gravity)) return options.gravity;
  if (found === null || found.length === 0) return options.gravity === "auto" ? "auto" : "center";
  return options.gravity === "face" ? "face" : "faces";
}
