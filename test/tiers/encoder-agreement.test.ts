// One transform URL must give the same image whichever tier computes it: the edge (jSquash in the
// isolate) for small sources, the origin (sharp) for the rest. The same generated photo goes
// through both tiers' transform code at the same requested quality; each output is decoded and
// scored against the source with the origin's SSIMULACRA 2.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { originTransformOptions, originTransformSchema } from "../../contracts/origin/image-transform.ts";
import { resolveTransform } from "../../contracts/transform/canonical.ts";
import { hasFixedQuality } from "../../contracts/transform/registry.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";
import { transformImage } from "../../origin/image/transform-image.ts";
import { photoLikePixels } from "../../origin/image/test-support/synthetic-images.ts";
import { ssimulacra2 } from "../../origin/quality/ssimulacra2.ts";
import type { RawImage } from "../../origin/quality/raw-image.ts";
import { transformAtEdge } from "../../workers/edge-image/edge-pipeline.ts";
import { readImageHeader } from "../../workers/edge-image/image-header.ts";

const WIDTH = 256;
const HEIGHT = 171;
const pixels = photoLikePixels(WIDTH, HEIGHT, 1);
const reference: RawImage = { data: new Uint8Array(pixels), width: WIDTH, height: HEIGHT, channels: 3 };
const source = new Uint8Array(await sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).png().toBuffer());

async function scoreOf(output: Uint8Array): Promise<number> {
  const { data, info } = await sharp(output).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([WIDTH, HEIGHT]);
  return ssimulacra2(reference, { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 });
}

describe("the edge and the origin agree on a transform's quality", () => {
  it.each(["jpeg", "webp", "avif"] as const)("%s at q_50, q_76 and q_90: within 2 SSIMULACRA 2 points and a quarter in bytes", async (format) => {
    const header = readImageHeader(source);
    expect(header).not.toBeNull();
    for (const quality of [50, 76, 90]) {
      const op = resolveTransform(parseTransform(`f_${format},q_${quality}`));
      if (!hasFixedQuality(op)) throw new Error(`q_${quality} resolved to a search`);
      const edge = await transformAtEdge(source, header!, op, format);
      const origin = await transformImage(source, originTransformSchema.parse(originTransformOptions(op, format)));
      expect(origin.format).toBe(format);
      expect((await sharp(edge.bytes).metadata()).format).toBe(format === "avif" ? "heif" : format);
      const [edgeScore, originScore] = [await scoreOf(edge.bytes), await scoreOf(origin.bytes)];
      const where = `${format} q_${quality}: edge ${edge.bytes.byteLength} B scoring ${edgeScore.toFixed(2)}, origin ${origin.bytes.byteLength} B scoring ${originScore.toFixed(2)}`;
      expect(Math.abs(edgeScore - originScore), where).toBeLessThanOrEqual(2);
      expect(edge.bytes.byteLength / origin.bytes.byteLength, where).toBeGreaterThanOrEqual(1 / 1.25);
      expect(edge.bytes.byteLength / origin.bytes.byteLength, where).toBeLessThanOrEqual(1.25);
    }
  });
});
