import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decodePixels } from "../edge-image/codecs.ts";
import { EDGE_MAX_SOURCE_BYTES } from "../../contracts/limits/edge-budget.ts";
import { concatBytes } from "../../contracts/encoding/concat-bytes.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { pngChunk } from "../test-support/padded-image.ts";
import { resolveTransform } from "../../contracts/transform/canonical.ts";
import { computeDerivative } from "./compute-derivative.ts";
import type { ComputedDerivative } from "./run-tier.ts";
import { storedOriginal } from "./stored-original.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";

async function bytesOf({ body }: ComputedDerivative): Promise<Uint8Array> {
  return body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer());
}

async function stored(bytes: Uint8Array, id: string) {
  await env.FILES.put(`test/${id}`, bytes);
  return storedOriginal(env.FILES, { id, r2_key: `test/${id}`, size_bytes: bytes.byteLength });
}

describe("computeDerivative", () => {
  it("works from the origin's mezzanine of a valid original the edge's decoder refuses", async () => {
    const photoPng = await generatedBytes("photo.png");
    // A 2 MB private chunk ahead of the image data: a valid PNG within the edge's budgets, which
    // libspng (the origin's decoder) reads and a fresh jSquash PNG instance refuses.
    const chunk = pngChunk("prVt", new Uint8Array(2_000_000));
    const withChunk = concatBytes(photoPng.subarray(0, 33), chunk, photoPng.subarray(33));
    expect(withChunk.byteLength).toBeLessThanOrEqual(EDGE_MAX_SOURCE_BYTES);
    await expect(decodePixels("png", withChunk)).rejects.toThrow();

    const derivative = await computeDerivative(env, "acct_test", await stored(withChunk, "file_chunky"), resolveTransform(parseTransform("w_400")), "png");
    expect(derivative).toMatchObject({ engine: "edge", source: "mezzanine", format: "png", width: 400, height: 266 });
    const [made, reference] = await Promise.all([decodePixels("png", await bytesOf(derivative)), computeDerivative(env, "acct_test", await stored(photoPng, "file_plain"), resolveTransform(parseTransform("w_400")), "png")]);
    expect(reference.engine).toBe("edge");
    const edge = await decodePixels("png", await bytesOf(reference));
    let difference = 0;
    for (let i = 0; i < made.data.length; i++) difference += Math.abs(made.data[i]! - edge.data[i]!);
    // The same picture, from the mezzanine and from the original.
    expect(difference / made.data.length).toBeLessThan(3);
  });

  it("reads only the start of an original it will not hold", async () => {
    const photoPng = await generatedBytes("photo.png");
    const original = await stored(photoPng, "file_start");
    expect(await original.readStart(16)).toEqual(photoPng.subarray(0, 16));
    expect(await original.readStart(photoPng.byteLength + 100)).toEqual(photoPng);
    expect(new Uint8Array(await new Response(await original.stream()).arrayBuffer())).toEqual(photoPng);
  });
});
