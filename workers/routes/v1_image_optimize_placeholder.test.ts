import { describe, expect, it } from "vitest";
import { thumbHashToApproximateAspectRatio } from "thumbhash";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import type { ImagePlaceholder } from "../../contracts/origin/image-placeholder.ts";
import { api, seedCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";

const photo = async (name = "landscape-1.jpg") => ({ base64: encodeBase64(await generatedBytes(name)) });

describe("placeholder: true on optimize and batch", () => {
  it("adds the output's placeholder to an optimize result, for free, and leaves it out by default", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const res = await api("/v1/image/optimize", { key: caller, json: { source: await photo(), options: { width: 300, format: "webp", placeholder: true } } });
    expect(res.status).toBe(200);
    const result = await res.json<{ width: number; height: number; placeholder: ImagePlaceholder; billing: { charged_micros: number } }>();
    expect(result.placeholder).toMatchObject({ width: result.width, height: result.height });
    expect(result.placeholder.lqip).toMatch(/^data:image\/webp;base64,/);
    const hash = Uint8Array.from(atob(result.placeholder.thumbhash), (ch) => ch.charCodeAt(0));
    // ThumbHash keeps the aspect ratio only roughly (its component counts): landscape stays landscape.
    expect(thumbHashToApproximateAspectRatio(hash)).toBeGreaterThan(1.2);
    expect(result.billing.charged_micros).toBe(800);

    const plain = await api("/v1/image/optimize", { key: caller, json: { source: await photo(), options: { width: 300, format: "webp" } } });
    expect(Object.keys(await plain.json<object>())).not.toContain("placeholder");
  });

  it("gives each batch item that asks for one its own placeholder", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const res = await api("/v1/image/batch", {
      key: caller,
      json: {
        images: [
          { ref: "wide", source: await photo() },
          { ref: "tall", source: await photo("portrait-1.jpg") },
        ],
        options: { width: 120, format: "jpeg" },
        per_image_options: { tall: { placeholder: true } },
      },
    });
    expect(res.status).toBe(200);
    const { results } = await res.json<{ results: { ref: string; width: number; height: number; placeholder?: ImagePlaceholder }[] }>();
    const [wide, tall] = results;
    expect(wide!.placeholder).toBeUndefined();
    expect(tall!.placeholder).toMatchObject({ width: tall!.width, height: tall!.height });
    expect(tall!.height).toBeGreaterThan(tall!.width);
  });
});
