import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sweepExpiredFiles } from "../files/expiry-sweep.ts";
import { deleteFile, storeFile } from "../files/file-store.ts";
import { seedCaller } from "../test-support/api.ts";
import { countDerivatives, derivativeKey, storeDerivative } from "./derivative-store.ts";
import { findMezzanine, mezzanineKey, storeMezzanine } from "./mezzanine-store.ts";

async function fileWithDerivatives(expiresAt: number) {
  const caller = await seedCaller();
  const file = await storeFile(env, { accountId: caller.accountId, kind: "source", body: new Uint8Array([1, 2, 3]), size: 3, contentType: "image/png", expiresAt });
  const ids = ["w_100", "w_200"].map((canonical) => ({ accountId: caller.accountId, fileId: file.id, canonical, formatClass: "" }));
  for (const id of ids) await storeDerivative(env, id, { body: new Uint8Array([9, 9]), contentType: "image/webp", etag: `"${id.canonical}"`, cacheOrigin: null });
  const original = { width: 4000, height: 3000, format: "jpeg", hasAlpha: false };
  await storeMezzanine(env.FILES, file.id, new Uint8Array([7, 7]), { format: "jpeg", width: 1154, height: 865, original });
  const found = await findMezzanine(env.FILES, file.id);
  expect(found?.meta).toEqual({ format: "jpeg", width: 1154, height: 865, original });
  // The mezzanine is no derivative: not counted against the per-file cap.
  expect(await countDerivatives(env.DB, caller.accountId, file.id)).toBe(2);
  return { caller, file, keys: [...(await Promise.all(ids.map(derivativeKey))), mezzanineKey(file.id)] };
}

describe("derivatives follow their file", () => {
  it("are deleted, rows and R2 objects, mezzanine included, when the file is deleted", async () => {
    const { caller, file, keys } = await fileWithDerivatives(Date.now() + 3_600_000);
    expect(await countDerivatives(env.DB, caller.accountId, file.id)).toBe(2);
    await deleteFile(env, caller.accountId, file.id);
    expect(await countDerivatives(env.DB, caller.accountId, file.id)).toBe(0);
    for (const key of keys) expect(await env.FILES.head(key)).toBeNull();
  });

  it("are deleted when the expiry sweep removes the file", async () => {
    const { caller, file, keys } = await fileWithDerivatives(Date.now() - 1_000);
    await sweepExpiredFiles(env, Date.now());
    expect(await countDerivatives(env.DB, caller.accountId, file.id)).toBe(0);
    for (const key of keys) expect(await env.FILES.head(key)).toBeNull();
  });
});
