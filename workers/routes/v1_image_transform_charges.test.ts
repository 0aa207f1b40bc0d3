// What the transform path must not charge for: a truncated source, an Accept class that cannot
// change a placeholder, and a spelling whose bytes equal a derivative already paid for.
import { describe, expect, it } from "vitest";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { padImage } from "../test-support/padded-image.ts";
import { EDGE_MAX_SOURCE_BYTES } from "../../contracts/limits/edge-budget.ts";
import { CHROME_ACCEPT, seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";
import { canonicalTransform } from "../../contracts/transform/canonical.ts";
import { transformSignature } from "../../contracts/transform/signature.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";
import { encodePixels } from "../edge-image/codecs.ts";
import { readImageHeader } from "../edge-image/image-header.ts";
import { canonicalPath } from "../transform/check-signature.ts";
import { shardRows } from "../test-support/shard-rows.ts";

async function derivativeRows(accountId: string, fileId: string): Promise<number> {
  const [row] = await shardRows<{ n: number }>(accountId, "SELECT COUNT(*) AS n FROM derivatives WHERE file_id = ?", fileId);
  return row!.n;
}

describe("the transform path charges only for work that made something new", () => {
  it.each([
    ["a PNG the edge would transform, cut in half", "photo.png", "image/png", 0.5],
    ["a PNG the edge would transform, missing its last byte", "photo.png", "image/png", -1],
    ["an animated GIF the origin transforms, cut in half", "animated.gif", "image/gif", 0.5],
  ])("refuses %s with 422 and no ledger row", async (_, name, contentType, kept) => {
    const caller = await seedCaller();
    const whole = await generatedBytes(name);
    const fileId = await seedSource(caller, whole.slice(0, kept < 0 ? whole.length - 1 : Math.floor(whole.length * kept)), contentType);
    const res = await api(transformUrl(caller, "w_40,f_webp", fileId));
    expect(res.status).toBe(422);
    expect((await problemOf(res)).type).toMatch(/image_unreadable$/);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
    expect(await derivativeRows(caller.accountId, fileId)).toBe(0);
  });

  // f_ folds away for a placeholder, so a signed ph_lqip URL still verifies with f_auto appended:
  // each Accept class must not be a new derivative the signer pays for.
  it("serves a signed ph_lqip URL with f_auto appended as one derivative, whatever Accept says", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generatedBytes("landscape-6.jpg"), "image/jpeg");
    const issued = await api(`/v1/keys/${caller.keyId}/signing-secret`, { key: caller, method: "POST" });
    const secret = (await issued.json<{ signing_secret: string }>()).signing_secret;
    const signature = await transformSignature(secret, canonicalPath(caller.keyId, canonicalTransform(parseTransform("w_400,h_200,fit_cover,ph_lqip")), fileId));
    const answers = [];
    for (const accept of [CHROME_ACCEPT, "image/png,image/*;q=0.8,*/*;q=0.5", "image/webp,*/*"]) {
      const res = await api(transformUrl(caller, `w_400,h_200,fit_cover,ph_lqip,f_auto,s_${signature}`, fileId), { headers: { Accept: accept } });
      expect(res.status).toBe(200);
      answers.push({ etag: res.headers.get("ETag"), vary: res.headers.get("Vary"), type: res.headers.get("Content-Type"), bytes: [...new Uint8Array(await res.arrayBuffer())] });
    }
    expect(answers.map((a) => a.vary)).toEqual([null, null, null]);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
    expect(await derivativeRows(caller.accountId, fileId)).toBe(1);
  });

  // The URL cannot know the image is still: anim_false is a new transform whose bytes only the
  // image makes equal to one already paid for. It is stored and served, not charged again.
  it.each([
    ["at the edge", "rgb.png", "image/png", "w_20,f_webp"],
    ["at the origin", "landscape-1.jpg", "image/jpeg", "w_40,bl_2"],
  ])("charges once for a still image with and without anim_false (%s): identical bytes", async (_, name, contentType, transform) => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generatedBytes(name), contentType);
    const bodies: number[][] = [];
    const etags: (string | null)[] = [];
    for (const spelling of [transform, `${transform},anim_false`]) {
      const res = await api(transformUrl(caller, spelling, fileId));
      expect([res.status, res.headers.get("X-Cache")]).toEqual([200, "MISS"]);
      etags.push(res.headers.get("ETag"));
      bodies.push([...new Uint8Array(await res.arrayBuffer())]);
    }
    expect(bodies[1]).toEqual(bodies[0]);
    expect(etags[1]).toBe(etags[0]);
    expect(await derivativeRows(caller.accountId, fileId)).toBe(2);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
    // Different bytes of the same file are still a new charge.
    const other = await api(transformUrl(caller, `${transform},q_40`, fileId));
    expect(other.status).toBe(200);
    await other.arrayBuffer();
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  // pg_1 (a PDF needs it) and a crop (a larger image is cut) stay in the canonical form; on a still
  // single-page image of that size they change nothing, so it is made as the plain transform is.
  it("charges once for pg_1 and a crop of the whole frame on a still single-page image, made at the edge like the plain one", async () => {
    const caller = await seedCaller();
    const bytes = await generatedBytes("rgb.png");
    const { width, height } = readImageHeader(bytes)!;
    const fileId = await seedSource(caller, bytes, "image/png");
    const plain = "w_20,f_webp";
    const bodies: number[][] = [];
    for (const spelling of [plain, `${plain},pg_1`, `crop_0x0x${width}x${height},${plain}`, `crop_0x0x${width}x${height},${plain},pg_1`]) {
      const res = await api(transformUrl(caller, spelling, fileId));
      expect([res.status, res.headers.get("X-Cache"), res.headers.get("X-Transform-Engine")]).toEqual([200, "MISS", "edge"]);
      bodies.push([...new Uint8Array(await res.arrayBuffer())]);
    }
    for (const body of bodies.slice(1)) expect(body).toEqual(bodies[0]);
    expect(await derivativeRows(caller.accountId, fileId)).toBe(4);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
    // A crop that cuts is new work, and a new charge.
    const cut = await api(transformUrl(caller, `crop_0x0x${width - 1}x${height},${plain}`, fileId));
    expect(cut.status).toBe(200);
    await cut.arrayBuffer();
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  // trim_ stays in the canonical form (a border may be there to trim); on an image with none it
  // changes nothing, which only the pixels tell: the origin measures the trim, and the edge then
  // makes the plain transform's bytes, where the plain one is made, which the same-bytes rule charges once.
  async function expectTrimZeroChargedOnce(source: { bytes: Uint8Array; contentType: string }, plain: string, madeBy: [string, string]): Promise<void> {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, source.bytes, source.contentType);
    const bodies: number[][] = [];
    for (const spelling of [plain, `${plain},trim_0`]) {
      const res = await api(transformUrl(caller, spelling, fileId));
      expect([res.status, res.headers.get("X-Cache"), res.headers.get("X-Transform-Engine"), res.headers.get("X-Transform-Source")]).toEqual([200, "MISS", ...madeBy]);
      bodies.push([...new Uint8Array(await res.arrayBuffer())]);
    }
    expect(bodies[1]).toEqual(bodies[0]);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  }

  it("charges once for trim_0 on an image with nothing to trim, made at the edge like the plain one", async () => {
    // Every pixel a colour of its own: no border matches the top-left corner's.
    const data = new Uint8ClampedArray(24 * 18 * 4);
    for (let i = 0; i < 24 * 18; i++) data.set([(i * 7) % 256, (i * 13) % 256, (i * 29) % 256, 255], i * 4);
    const bytes = await encodePixels("png", { data, width: 24, height: 18 }, 100);
    await expectTrimZeroChargedOnce({ bytes, contentType: "image/png" }, "w_20,f_webp", ["edge", "original"]);
  });

  it.each([
    // Over the edge's pixel budget, held whole: the origin measures the trim from the bytes read.
    ["over the pixel budget", () => generatedBytes("landscape-1.jpg"), "image/jpeg"],
    // Over the edge's byte budget: the origin measures the trim from the stream.
    ["over the byte budget", async () => padImage(await generatedBytes("photo.png"), EDGE_MAX_SOURCE_BYTES + 2), "image/png"],
  ] as const)("charges once for trim_0 on a photo %s with nothing to trim, made from its mezzanine like the plain one", async (_, bytes, contentType) => {
    await expectTrimZeroChargedOnce({ bytes: await bytes(), contentType }, "w_300,f_webp", ["edge", "mezzanine"]);
  });
});
