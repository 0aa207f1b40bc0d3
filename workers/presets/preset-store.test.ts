import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { seedCaller } from "../test-support/api.ts";
import { deleteDerivatives, readStoredDerivative, storeDerivative } from "../derivatives/derivative-store.ts";
import { recordPresetDerivative, takePresetDerivatives } from "./preset-derivative-store.ts";
import { deletePreset, findPresetTransform, listPresets, putPreset } from "./preset-store.ts";

describe("the preset store", () => {
  it("puts, repoints, finds, lists and deletes an account's presets, and another account's are not found", async () => {
    const { accountId } = await seedCaller();
    const other = await seedCaller();
    expect((await putPreset(env.DB, accountId, "thumb", "w_64", 1)).previous).toBeNull();
    const repointed = await putPreset(env.DB, accountId, "thumb", "w_32", 2);
    expect([repointed.previous, repointed.record.transform, repointed.record.created_at, repointed.record.updated_at]).toEqual(["w_64", "w_32", 1, 2]);
    expect(await findPresetTransform(env.DB, accountId, "thumb")).toBe("w_32");
    expect(await findPresetTransform(env.DB, other.accountId, "thumb")).toBeNull();
    expect(await listPresets(env.DB, other.accountId)).toEqual([]);
    await expect(deletePreset(env.DB, other.accountId, "thumb")).rejects.toThrow(ProblemError);
    expect((await deletePreset(env.DB, accountId, "thumb")).transform).toBe("w_32");
    expect(await listPresets(env.DB, accountId)).toEqual([]);
  });

  it("records a derivative made through a preset once, and hands it back once", async () => {
    const { accountId } = await seedCaller();
    const identity = { accountId, fileId: "file_preset_store", canonical: "w_10", formatClass: "webp" as const };
    await storeDerivative(env, identity, { body: new Uint8Array([1, 2, 3]), size: 3, sha256: null, contentType: "image/webp", etag: '"a"' });
    await recordPresetDerivative(env.DB, "thumb", { identity, cacheUrl: "https://api.test/v1/image/t/~cache/x" });
    await recordPresetDerivative(env.DB, "thumb", { identity, cacheUrl: "https://api.test/v1/image/t/~cache/x" });
    const taken = await takePresetDerivatives(env.DB, accountId, "thumb");
    expect(taken).toEqual([{ identity, cacheUrl: "https://api.test/v1/image/t/~cache/x" }]);
    expect(await takePresetDerivatives(env.DB, accountId, "thumb")).toEqual([]);

    const stored = await readStoredDerivative(env, identity);
    expect(await deleteDerivatives(env, accountId, [identity, { ...identity, canonical: "w_11" }])).toBe(1);
    expect(await readStoredDerivative(env, identity)).toBeNull();
    expect(await env.FILES.head(stored!.record.r2_key)).toBeNull();
  });
});
