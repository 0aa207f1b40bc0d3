import { env } from "cloudflare:test";
import { decode as blurhashDecode } from "blurhash";
import { thumbHashToRGBA } from "thumbhash";
import { describe, expect, it } from "vitest";
import { storeFile } from "../files/file-store.ts";
import type { ImagePlaceholder } from "../../contracts/origin/image-placeholder.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { balanceOf } from "../test-support/account-books.ts";

const DAY = 86_400_000;

async function storedFile(accountId: string, bytes: Uint8Array, contentType: string) {
  return storeFile(env, { accountId, kind: "source", body: bytes, size: bytes.length, contentType, filename: "photo", expiresAt: Date.now() + DAY });
}

function meanOfRgba(rgba: ArrayLike<number>): number[] {
  const sums = [0, 0, 0];
  for (let i = 0; i < rgba.length; i += 4) for (let c = 0; c < 3; c++) sums[c]! += rgba[i + c]!;
  return sums.map((sum) => sum / (rgba.length / 4));
}

describe("GET /v1/files/{file_id}/placeholder", () => {
  it("computes the placeholder of a stored photo at its upright size, free, and keeps the file", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const upright = await storedFile(caller.accountId, await generatedBytes("landscape-1.jpg"), "image/jpeg");
    const turned = await storedFile(caller.accountId, await generatedBytes("landscape-6.jpg"), "image/jpeg");

    const res = await api(`/v1/files/${turned.id}/placeholder`, { key: caller });
    expect(res.status).toBe(200);
    const placeholder = await res.json<ImagePlaceholder>();
    expect(placeholder).toMatchObject({ width: 1800, height: 1200 });
    expect(placeholder.lqip).toMatch(/^data:image\/webp;base64,[A-Za-z0-9+/]+=*$/);
    expect(placeholder.dominant_color).toMatch(/^#[0-9a-f]{6}$/);

    // The same picture stored sideways gives the same placeholder once oriented.
    const reference = await (await api(`/v1/files/${upright.id}/placeholder`, { key: caller })).json<ImagePlaceholder>();
    const thumbMean = (p: ImagePlaceholder) => meanOfRgba(thumbHashToRGBA(Uint8Array.from(atob(p.thumbhash), (ch) => ch.charCodeAt(0))).rgba);
    thumbMean(placeholder).forEach((value, i) => expect(Math.abs(value - thumbMean(reference)[i]!)).toBeLessThan(4));
    const blurMean = (p: ImagePlaceholder) => meanOfRgba(blurhashDecode(p.blurhash, 24, 16));
    blurMean(placeholder).forEach((value, i) => expect(Math.abs(value - blurMean(reference)[i]!)).toBeLessThan(4));

    expect(await balanceOf(caller.accountId)).toBe(10_000);
    expect((await api(`/v1/files/${turned.id}`, { key: caller })).status).toBe(200);
  });

  it("answers 404 for another account's file, 401 without a key, 403 without the files scope", async () => {
    const photo = await generatedBytes("landscape-1.jpg");
    const mine = await seedCaller();
    const theirs = await seedCaller();
    const their = await storedFile(theirs.accountId, photo, "image/jpeg");
    expect((await problemOf(await api(`/v1/files/${their.id}/placeholder`, { key: mine }))).status).toBe(404);
    expect((await problemOf(await api(`/v1/files/${their.id}/placeholder`))).status).toBe(401);
    const imagesOnly = await seedCaller({ scopes: ["images"] });
    const own = await storedFile(imagesOnly.accountId, photo, "image/jpeg");
    expect((await problemOf(await api(`/v1/files/${own.id}/placeholder`, { key: imagesOnly }))).status).toBe(403);
  });

  it("refuses a stored file that is not an image with 415 and a corrupt image with a 4xx", async () => {
    const caller = await seedCaller();
    const pdf = await storedFile(caller.accountId, await generatedBytes("vector-only.pdf"), "application/pdf");
    expect((await problemOf(await api(`/v1/files/${pdf.id}/placeholder`, { key: caller }))).status).toBe(415);
    const photo = await generatedBytes("landscape-1.jpg");
    const cut = await storedFile(caller.accountId, photo.subarray(0, 3000), "image/jpeg");
    const problem = await problemOf(await api(`/v1/files/${cut.id}/placeholder`, { key: caller }));
    expect(problem.status).toBeGreaterThanOrEqual(400);
    expect(problem.status).toBeLessThan(500);
  });
});
