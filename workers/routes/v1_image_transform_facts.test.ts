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

describe("the face tokens through the transform path", () => {
  it("are made at the origin: f_json lists the face and the gravity applied, and g_face's crop holds it", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generated("face.png"), "image/png");
    const facts = imageFactsSchema.parse(await (await api(transformUrl(caller, "f_json,w_300,h_300,fit_cover,g_face", fileId))).json());
    expect(facts.faces).toHaveLength(1);
    expect(facts.gravity).toBe("face");
    const [face] = facts.faces;
    for (const transform of ["w_300,h_300,fit_cover,g_face,f_png", "w_300,h_300,fit_cover,g_face,z_2,f_png", "e_blur_faces,f_png", "w_300,h_300,fit_cover,g_auto,f_png"]) {
      const made = await api(transformUrl(caller, transform, fileId));
      expect([transform, made.status, made.headers.get("X-Transform-Engine")]).toEqual([transform, 200, "origin"]);
      await made.arrayBuffer();
    }
    // The 600 px square g_face keeps lies against the right edge: the face's right half is in its right half.
    const cropped = await decodePixels("png", new Uint8Array(await (await api(transformUrl(caller, "w_300,h_300,fit_cover,g_face,f_png", fileId))).arrayBuffer()));
    const centre = await decodePixels("png", new Uint8Array(await (await api(transformUrl(caller, "w_300,h_300,fit_cover,f_png", fileId))).arrayBuffer()));
    const skinAt = (pixels: { data: Uint8Array | Uint8ClampedArray; width: number }, x: number, y: number) => {
      const at = (y * pixels.width + x) * 4;
      return pixels.data[at]! > 180 && pixels.data[at]! > pixels.data[at + 2]! + 40;
    };
    // The face's middle, (face centre - 600) / 2 in the 300 px output of the right-hand square.
    const [x, y] = [Math.round((face!.x + face!.width / 2 - 600) / 2), Math.round((face!.y + face!.height / 2) / 2)];
    expect([skinAt(cropped, x, y), skinAt(centre, x, y)]).toEqual([true, false]);
  });

  it("refuses a bad face operand with a 400 naming the token, and charges nothing", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generated("face.png"), "image/png");
    for (const transform of ["e_blur_faces:0", "w_300,h_300,fit_cover,g_face,z_20", "e_pixelate_faces:1"]) {
      const problem = await problemOf(await api(transformUrl(caller, transform, fileId)));
      const token = transform.split(",").at(-1)!;
      expect([problem.status, problem.errors?.[0]?.pointer]).toEqual([400, `/transform/${token}`]);
    }
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });
});
