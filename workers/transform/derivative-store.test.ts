import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sweepExpiredFiles } from "../files/expiry-sweep.ts";
import { deleteFile, storeFile } from "../files/file-store.ts";
import { seedCaller } from "../test-support/api.ts";
import { countDerivatives, derivativeKey, storeDerivative } from "./derivative-store.ts";

async function fileWithDerivatives(expiresAt: number) {
  const caller = await seedCaller();
  const file = await storeFile(env, { accountId: caller.accountId, kind: "source", body: new Uint8Array([1, 2, 3]), size: 3, contentType: "image/png", expiresAt });
  const ids = ["w_100", "w_200"].map((canonical) => ({ accountId: caller.accountId, fileId: file.id, canonical, formatClass: "" }));
  for (const id of ids) await storeDerivative(env, id, new Uint8Array([9, 9]), "image/webp", `"${id.canonical}"`);
  return { caller, file, keys: await Promise.all(ids.map(derivativeKey)) };
}

describe("derivatives follow their file", () => {
  it("are deleted, rows and R2 objects, when the file is deleted", async () => {
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
