// What the transform path must not charge for: a truncated source, an Accept class that cannot
// change a placeholder, and a spelling whose bytes equal a derivative already paid for.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";

async function derivativeRows(accountId: string, fileId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM derivatives WHERE account_id = ? AND file_id = ?").bind(accountId, fileId).first<{ n: number }>();
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
});
