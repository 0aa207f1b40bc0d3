// f_json through the transform path: the origin reads the source's facts, and the edge caches and
// bills them like any derivative.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { imageFactsSchema } from "../../contracts/origin/image-facts.ts";
import { decodePixels } from "../edge-image/codecs.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";

async function generated(name: string): Promise<Uint8Array> {
  return new Uint8Array(await (await fetch(`${env.TEST_GENERATED_FILES_URL}/${name}`)).arrayBuffer());
}

describe("GET /v1/image/t/{key_id}/f_json/{file_id}", () => {
  it("answers the source's facts and the output size as JSON, cached and billed once like a derivative", async () => {
    const caller = await seedCaller();
    const png = await generated("photo.png");
    const fileId = await seedSource(caller, png, "image/png");
    const first = await api(transformUrl(caller, "f_json,w_100", fileId));
    expect([first.status, first.headers.get("Content-Type"), first.headers.get("X-Cache-Tier"), first.headers.get("X-Transform-Engine")]).toEqual([200, "application/json", "compute", "origin"]);
    const facts = imageFactsSchema.parse(await first.json());
    const pixels = await decodePixels("png", png);
    expect(facts).toMatchObject({ width: pixels.width, height: pixels.height, format: "png", orientation: 1, frames: 1, has_alpha: false });
    expect(facts.output).toEqual({ width: 100, height: Math.round((pixels.height * 100) / pixels.width) });

    // q_ and anim_ change no fact, so they fold away: the same derivative.
    for (const transform of ["w_100,f_json", "f_json,w_100,q_40,anim_false"]) {
      const again = await api(transformUrl(caller, transform, fileId));
      expect([again.headers.get("X-Cache-Tier"), imageFactsSchema.parse(await again.json())]).toEqual(["edge", facts]);
    }
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });

  it("is refused for a bad token like any transform, and charged nothing", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generated("photo.png"), "image/png");
    const problem = await problemOf(await api(transformUrl(caller, "f_jsonx", fileId)));
    expect([problem.status, problem.errors?.[0]?.pointer]).toEqual([400, "/transform/f_jsonx"]);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });
});
