// The colour tokens (bg_, br_, ct_, sat_, gam_) through the transform path: the edge sends each to
// the origin (none is on the edge's allow-list), a bad value is a 400 naming the token, and
// nothing refused is charged.
import { describe, expect, it } from "vitest";
import { decodePixels, encodePixels, type Pixels } from "../edge-image/codecs.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";

async function decoded(res: Response, format: "png" | "jpeg"): Promise<Pixels> {
  expect(res.status).toBe(200);
  return decodePixels(format, new Uint8Array(await res.arrayBuffer()));
}

const rgbaAt = (image: Pixels, x: number, y: number) => [...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4)];

/** 20x10, the left half transparent, the right half opaque red-orange (#e05020), as PNG. */
async function halfTransparent(): Promise<Uint8Array> {
  const data = new Uint8ClampedArray(20 * 10 * 4);
  for (let i = 0; i < 200; i++) data.set(i % 20 < 10 ? [0, 0, 0, 0] : [224, 80, 32, 255], i * 4);
  return encodePixels("png", { data, width: 20, height: 10 }, 100);
}

describe("GET /v1/image/t/{key_id}/bg_<RRGGBB>/{file_id}", () => {
  it("pads fit_contain with the colour and flattens transparency onto it in a JPEG; on a PNG without contain it folds away", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await halfTransparent(), "image/png");
    const padded = await decoded(await api(transformUrl(caller, "w_20,h_20,fit_contain,f_png,bg_00FF00", fileId)), "png");
    expect([padded.width, padded.height]).toEqual([20, 20]);
    expect(rgbaAt(padded, 15, 1)).toEqual([0, 255, 0, 255]);
    expect(rgbaAt(padded, 15, 10)).toEqual([224, 80, 32, 255]);
    const flattened = await decoded(await api(transformUrl(caller, "f_jpeg,bg_0000ff", fileId)), "jpeg");
    const [r, g, b] = rgbaAt(flattened, 2, 5);
    expect(r!).toBeLessThan(8);
    expect(g!).toBeLessThan(8);
    expect(b!).toBeGreaterThan(247);
    // An output that keeps alpha with nothing padded: the same derivative as without bg_.
    const plain = await api(transformUrl(caller, "f_png", fileId));
    const withBg = await api(transformUrl(caller, "f_png,bg_00ff00", fileId));
    expect(withBg.headers.get("ETag")).toBe(plain.headers.get("ETag"));
    await plain.arrayBuffer();
    await withBg.arrayBuffer();
    expect(await transformCharges(caller.accountId)).toEqual({ n: 3, micros: 2400 });
  });

  it("on an opaque source flattened into JPEG, bg_ is its own derivative of the same bytes: served, not charged again", async () => {
    const caller = await seedCaller();
    const data = new Uint8ClampedArray(16 * 12 * 4);
    for (let i = 0; i < 16 * 12; i++) data.set([40 + (i % 16) * 10, 90, 200 - Math.floor(i / 16) * 10, 255], i * 4);
    const fileId = await seedSource(caller, await encodePixels("png", { data, width: 16, height: 12 }, 100), "image/png");
    const plain = await api(transformUrl(caller, "w_12,f_jpeg", fileId));
    const withBg = await api(transformUrl(caller, "w_12,f_jpeg,bg_ff00ff", fileId));
    expect(new Uint8Array(await withBg.arrayBuffer())).toEqual(new Uint8Array(await plain.arrayBuffer()));
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });
});

describe("GET /v1/image/t/{key_id}/{br_,ct_,sat_,gam_}/{file_id}", () => {
  it("applies them at the origin (sat_-100 is grey) and refuses malformed or out-of-range values with 400 naming the token, charging only what was served", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await halfTransparent(), "image/png");
    const grey = await decoded(await api(transformUrl(caller, "f_png,sat_-100", fileId)), "png");
    const [r, g, b, a] = rgbaAt(grey, 15, 5);
    expect([g, b, a]).toEqual([r, r, 255]);
    expect(r).not.toBe(224);
    for (const transform of ["bg_12345", "bg_gggggg", "br_101", "ct_-101", "sat_1.5", "gam_0", "gam_11"]) {
      const res = await api(transformUrl(caller, transform, fileId));
      expect(res.status, transform).toBe(400);
      const problem = await problemOf(res);
      expect(problem.errors?.[0]?.pointer).toBe(`/transform/${transform}`);
      expect(problem.errors?.[0]?.detail).toMatch(new RegExp(`^${transform.split("_")[0]}_ must be`));
    }
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });
});
