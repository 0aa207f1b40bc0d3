// The geometry tokens (crop_, g_<x>x<y>, trim_) through the transform path: the edge sends each to the origin
// (none is on the edge's allow-list), a bad value is a 4xx naming the token, and nothing refused is charged.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decodePixels, encodePixels, type Pixels } from "../edge-image/codecs.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";

async function generated(name: string): Promise<Uint8Array> {
  return new Uint8Array(await (await fetch(`${env.TEST_GENERATED_FILES_URL}/${name}`)).arrayBuffer());
}

async function png(res: Response): Promise<Pixels> {
  expect(res.status).toBe(200);
  return decodePixels("png", new Uint8Array(await res.arrayBuffer()));
}

const rgbAt = (image: Pixels, x: number, y: number) => [...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3)];

describe("GET /v1/image/t/{key_id}/crop_<x>x<y>x<w>x<h>/{file_id}", () => {
  it("serves the rectangle of the source, billed once as its own derivative", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generated("photo.png"), "image/png");
    const whole = await png(await api(transformUrl(caller, "f_png", fileId)));
    const cut = await png(await api(transformUrl(caller, "crop_0100x50x40x30,f_png", fileId)));
    expect([cut.width, cut.height]).toEqual([40, 30]);
    for (const [x, y] of [[0, 0], [39, 29], [17, 11]] as const) expect(rgbAt(cut, x, y)).toEqual(rgbAt(whole, 100 + x, 50 + y));
    // The same rectangle spelled otherwise is the same derivative.
    expect((await api(transformUrl(caller, "f_png,crop_100x050x40x30", fileId))).status).toBe(200);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("refuses a rectangle past the image with 422 crop_out_of_bounds, and a malformed one with 400, charging nothing", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generated("rgb.png"), "image/png");
    const outside = await api(transformUrl(caller, "crop_10x10x100x100", fileId));
    expect(outside.status).toBe(422);
    const problem = await problemOf(outside);
    expect(problem.type).toBe("https://pixelpress.dev/problems/crop_out_of_bounds");
    expect(problem.errors?.[0]?.pointer).toBe("/transform/crop_10x10x100x100");
    for (const transform of ["crop_10x10x100", "crop_0x0x0x5", "crop_0x0x5x5x5"]) {
      const res = await api(transformUrl(caller, transform, fileId));
      expect(res.status).toBe(400);
      expect((await problemOf(res)).errors?.[0]?.pointer).toBe(`/transform/${transform}`);
    }
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });
});

describe("GET /v1/image/t/{key_id}/g_<x>x<y>/{file_id}", () => {
  it("crops around the focal point; the centre spelled as a point is g_center's derivative", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generated("photo.png"), "image/png");
    const centre = await png(await api(transformUrl(caller, "w_40,h_40,fit_cover,f_png", fileId)));
    const atPoint = await api(transformUrl(caller, "w_40,h_40,fit_cover,f_png,g_0.50x0.5", fileId));
    expect(atPoint.status).toBe(200);
    expect(atPoint.headers.get("ETag")).toBe((await api(transformUrl(caller, "w_40,h_40,fit_cover,f_png", fileId))).headers.get("ETag"));
    await atPoint.arrayBuffer();
    const left = await png(await api(transformUrl(caller, "w_40,h_40,fit_cover,f_png,g_0.1x0.5", fileId)));
    expect([left.width, left.height]).toEqual([40, 40]);
    expect(left.data).not.toEqual(centre.data);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });
});

/** 20x16 white with a red 6x5 block at (5, 4), as PNG. */
async function blockOnWhite(): Promise<Uint8Array> {
  const data = new Uint8ClampedArray(20 * 16 * 4).fill(255);
  for (let y = 4; y < 9; y++) for (let x = 5; x < 11; x++) data.set([255, 0, 0, 255], (y * 20 + x) * 4);
  return encodePixels("png", { data, width: 20, height: 16 }, 100);
}

describe("GET /v1/image/t/{key_id}/trim_<0-100>/{file_id}", () => {
  it("trims the uniform border, and refuses a tolerance out of range with 400, charging only the derivative", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await blockOnWhite(), "image/png");
    const trimmed = await png(await api(transformUrl(caller, "f_png,trim_10", fileId)));
    expect([trimmed.width, trimmed.height]).toEqual([6, 5]);
    expect(rgbAt(trimmed, 0, 0)).toEqual([255, 0, 0]);
    for (const transform of ["trim_101", "trim_x"]) {
      const res = await api(transformUrl(caller, transform, fileId));
      expect(res.status).toBe(400);
      expect((await problemOf(res)).errors?.[0]?.pointer).toBe(`/transform/${transform}`);
    }
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });
});
