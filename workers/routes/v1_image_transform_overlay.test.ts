// l_ through the transform path: the edge reads the overlay file of the same account and sends it
// to the origin ahead of the source; a file it cannot use is a 422 naming the token, charged
// nothing; and deleting or purging the overlay's file drops every derivative drawn with it, over a
// stored file or a remote origin's path alike.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decodePixels, encodePixels, type Pixels } from "../edge-image/codecs.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";
import { loopbackApi, originTransformUrl, registerGeneratedOrigin } from "../test-support/origin-requests.ts";
import { fileShardRows, shardRows } from "../test-support/shard-rows.ts";

async function generated(name: string): Promise<Uint8Array> {
  return new Uint8Array(await (await fetch(`${env.TEST_GENERATED_FILES_URL}/${name}`)).arrayBuffer());
}

/** A PNG of one colour: red and opaque for a watermark, or fully transparent. */
async function square(size: number, alpha: number): Promise<Uint8Array> {
  const data = new Uint8ClampedArray(size * size * 4);
  for (let i = 0; i < data.length; i += 4) data.set([255, 0, 0, alpha], i);
  return encodePixels("png", { data, width: size, height: size }, 100);
}

async function png(res: Response): Promise<Pixels> {
  expect(res.status).toBe(200);
  return decodePixels("png", new Uint8Array(await res.arrayBuffer()));
}

const rgb = (image: Pixels, x: number, y: number) => [...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3)];

async function overlaidDerivatives(accountId: string, fileId: string, overlayId: string): Promise<number> {
  const [row] = await shardRows<{ n: number }>(accountId, "SELECT COUNT(*) AS n FROM derivatives WHERE file_id = ? AND overlay_file_id = ?", fileId, overlayId);
  return row!.n;
}

async function originDerivativesDrawnWith(accountId: string, overlayId: string): Promise<number> {
  const [row] = await shardRows<{ n: number }>(accountId, "SELECT COUNT(*) AS n FROM derivatives WHERE file_id LIKE 'orig_%' AND overlay_file_id = ?", overlayId);
  return row!.n;
}

async function seedPair(caller: TestCaller) {
  const fileId = await seedSource(caller, await generated("photo.png"), "image/png");
  const redId = await seedSource(caller, await square(8, 255), "image/png");
  return { fileId, redId };
}

describe("GET /v1/image/t/{key_id}/l_<file_id>/{file_id}", () => {
  it("draws the overlay over its corner only, sized in percent of the output, billed as a derivative of its own", async () => {
    const caller = await seedCaller();
    const { fileId, redId } = await seedPair(caller);
    // A transparent overlay draws nothing, and it takes the plain image through the origin's resize too.
    const clearId = await seedSource(caller, await square(8, 0), "image/png");
    const plain = await png(await api(transformUrl(caller, `w_64,f_png,l_${clearId}`, fileId)));
    const res = await api(transformUrl(caller, `w_64,f_png,l_${redId},lg_southeast,lw_25`, fileId));
    expect(res.headers.get("X-Transform-Engine")).toBe("origin");
    const overlaid = await png(res);
    expect([overlaid.width, overlaid.height]).toEqual([plain.width, plain.height]);
    // 25% of 64 px: a 16 px square in the bottom-right corner.
    const box = { left: plain.width - 16, top: plain.height - 16 };
    let changedOutside = 0;
    for (let y = 0; y < plain.height; y++) {
      for (let x = 0; x < plain.width; x++) {
        const within = x >= box.left && y >= box.top;
        if (within) expect(rgb(overlaid, x, y)).toEqual([255, 0, 0]);
        else if (rgb(overlaid, x, y).some((v, i) => v !== rgb(plain, x, y)[i])) changedOutside++;
      }
    }
    expect(changedOutside).toBe(0);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("blends by lo_", async () => {
    const caller = await seedCaller();
    const { fileId, redId } = await seedPair(caller);
    const clearId = await seedSource(caller, await square(8, 0), "image/png");
    const plain = await png(await api(transformUrl(caller, `w_64,f_png,l_${clearId}`, fileId)));
    const half = await png(await api(transformUrl(caller, `w_64,f_png,l_${redId},lg_northwest,lw_25,lo_50`, fileId)));
    const [r, g, b] = rgb(plain, 4, 4);
    const blended = [(255 + r!) / 2, g! / 2, b! / 2];
    rgb(half, 4, 4).forEach((v, i) => expect(Math.abs(v - blended[i]!)).toBeLessThanOrEqual(2));
  });

  it("refuses another account's file, a missing one, a deleted one and one that is not an image with a 422 naming the token, charging nothing", async () => {
    const caller = await seedCaller();
    const other = await seedCaller();
    const { fileId } = await seedPair(caller);
    const foreign = await seedSource(other, await square(8, 255), "image/png");
    const deleted = await seedSource(caller, await square(8, 255), "image/png");
    expect((await api(`/v1/files/${deleted}/ack`, { key: caller, method: "POST" })).status).toBe(200);
    const pdf = await seedSource(caller, await generated("vector-only.pdf"), "application/pdf");
    for (const overlayId of [foreign, "file_doesNotExist000000", deleted, pdf]) {
      const res = await api(transformUrl(caller, `w_64,l_${overlayId}`, fileId));
      expect(res.status, overlayId).toBe(422);
      const problem = await problemOf(res);
      expect(problem.type).toMatch(/overlay_unavailable$/);
      expect(problem.errors?.map(({ pointer }) => pointer)).toEqual([`/transform/l_${overlayId}`]);
      expect(problem.errors?.[0]?.detail).toBeTypeOf("string");
      expect(problem.detail).toContain(`l_${overlayId}`);
    }
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
    expect(await transformCharges(other.accountId)).toEqual({ n: 0, micros: 0 });
  });

  it("folds lg_, lw_ and lo_ without l_ away: the plain derivative, charged once", async () => {
    const caller = await seedCaller();
    const { fileId } = await seedPair(caller);
    const plain = await api(transformUrl(caller, "w_32,f_png", fileId));
    const spelled = await api(transformUrl(caller, "w_32,f_png,lg_north,lw_50,lo_20", fileId));
    expect(spelled.headers.get("ETag")).toBe(plain.headers.get("ETag"));
    expect(new Uint8Array(await spelled.arrayBuffer())).toEqual(new Uint8Array(await plain.arrayBuffer()));
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });

  it("drops every derivative drawn with the overlay when its file is deleted, edge cache included", async () => {
    const caller = await seedCaller();
    const { fileId, redId } = await seedPair(caller);
    const url = transformUrl(caller, `w_48,l_${redId},lg_southwest`, fileId);
    expect((await api(url)).headers.get("X-Cache")).toBe("MISS");
    const hit = await api(url);
    expect(hit.headers.get("X-Cache")).toBe("HIT");
    await hit.arrayBuffer();
    expect(await overlaidDerivatives(caller.accountId, fileId, redId)).toBe(1);
    const { r2_key } = (await shardRows<{ r2_key: string }>(caller.accountId, "SELECT r2_key FROM derivatives WHERE overlay_file_id = ?", redId))[0]!;

    expect((await api(`/v1/files/${redId}/ack`, { key: caller, method: "POST" })).status).toBe(200);
    expect(await overlaidDerivatives(caller.accountId, fileId, redId)).toBe(0);
    expect(await env.FILES.head(r2_key)).toBeNull();
    // Not served from the edge cache: the URL now names a deleted overlay.
    const after = await api(url);
    expect(after.status).toBe(422);
    expect((await problemOf(after)).type).toMatch(/overlay_unavailable$/);
    // The source itself, and its other derivatives, stay.
    expect((await api(transformUrl(caller, "w_48,f_png", fileId))).status).toBe(200);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("drops the derivatives drawn with an overlay when the overlay's file is purged, and the next request computes again without a second charge", async () => {
    const caller = await seedCaller();
    const { fileId, redId } = await seedPair(caller);
    const url = transformUrl(caller, `w_48,l_${redId}`, fileId);
    const first = await api(url);
    const etag = first.headers.get("ETag");
    await first.arrayBuffer();
    const purged = await api("/v1/purge", { key: caller, json: { files: [redId] } });
    expect(purged.status).toBe(200);
    expect(await purged.json()).toMatchObject({ derivatives: 1 });
    expect(await overlaidDerivatives(caller.accountId, fileId, redId)).toBe(0);
    const again = await api(url);
    expect([again.status, again.headers.get("X-Cache-Tier"), again.headers.get("ETag")]).toEqual([200, "compute", etag]);
    await again.arrayBuffer();
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });

  it("draws an overlay over a remote origin's image, and deleting the overlay's file drops that derivative, edge cache included", async () => {
    const caller = await seedCaller();
    await registerGeneratedOrigin(caller);
    const redId = await seedSource(caller, await square(8, 255), "image/png");
    const url = originTransformUrl(caller, `w_64,f_png,l_${redId},lg_southeast,lw_25`, "shop", "/photo.png");
    const overlaid = await png(await loopbackApi(url));
    expect(rgb(overlaid, overlaid.width - 1, overlaid.height - 1)).toEqual([255, 0, 0]);
    expect(rgb(overlaid, 0, 0)).not.toEqual([255, 0, 0]);
    expect(await originDerivativesDrawnWith(caller.accountId, redId)).toBe(1);
    const hit = await loopbackApi(url);
    expect(hit.headers.get("X-Cache")).toBe("HIT");
    await hit.arrayBuffer();

    expect((await api(`/v1/files/${redId}/ack`, { key: caller, method: "POST" })).status).toBe(200);
    expect(await originDerivativesDrawnWith(caller.accountId, redId)).toBe(0);
    // Not served from the edge cache: the URL now names a deleted overlay.
    const after = await loopbackApi(url);
    expect(after.status).toBe(422);
    expect((await problemOf(after)).type).toMatch(/overlay_unavailable$/);
    // The path's own derivatives stay.
    expect((await loopbackApi(originTransformUrl(caller, "w_64,f_png", "shop", "/photo.png"))).status).toBe(200);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("drops an origin path's derivative drawn with an overlay when the overlay's file is purged", async () => {
    const caller = await seedCaller();
    await registerGeneratedOrigin(caller);
    const redId = await seedSource(caller, await square(8, 255), "image/png");
    const url = originTransformUrl(caller, `w_48,l_${redId}`, "shop", "/photo.png");
    await (await loopbackApi(url)).arrayBuffer();
    const purged = await api("/v1/purge", { key: caller, json: { files: [redId] } });
    expect(await purged.json()).toMatchObject({ derivatives: 1, edge_entries: 1 });
    expect(await originDerivativesDrawnWith(caller.accountId, redId)).toBe(0);
    const again = await loopbackApi(url);
    expect([again.status, again.headers.get("X-Cache-Tier")]).toEqual([200, "compute"]);
    await again.arrayBuffer();
  });

  it("refuses a missing overlay on an origin path before fetching the original", async () => {
    const caller = await seedCaller();
    await registerGeneratedOrigin(caller);
    const res = await loopbackApi(originTransformUrl(caller, "w_48,l_file_doesNotExist000000", "shop", "/photo.png"));
    expect(res.status).toBe(422);
    expect((await problemOf(res)).type).toMatch(/overlay_unavailable$/);
    const fetched = (await fileShardRows<{ n: number }>(caller.accountId, "SELECT COUNT(*) AS n FROM origin_objects"))[0];
    expect(fetched!.n).toBe(0);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });
});
