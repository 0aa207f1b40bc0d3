import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey, isWellFormedApiKey } from "./api-key.ts";

describe("api keys", () => {
  it("generates well-formed, unique keys whose hash is stored, not the secret", async () => {
    const a = await generateApiKey();
    const b = await generateApiKey();
    expect(a.secret).toMatch(/^ak_live_[0-9A-Za-z]{38}$/);
    expect(a.secret).not.toBe(b.secret);
    expect(a.keyId).toMatch(/^key_[0-9A-Za-z]{20}$/);
    expect(isWellFormedApiKey(a.secret)).toBe(true);
    expect(a.secretHash).toBe(await hashApiKey(a.secret));
    expect(a.secretHash).not.toContain(a.secret.slice(8));
    expect(a.displayPrefix).toBe(a.secret.slice(0, 12));
  });

  it("rejects a one-character typo through the checksum", async () => {
    const { secret } = await generateApiKey();
    const i = 8 + 5;
    const typo = secret.slice(0, i) + (secret[i] === "a" ? "b" : "a") + secret.slice(i + 1);
    expect(isWellFormedApiKey(typo)).toBe(false);
  });

  it("rejects wrong prefixes, lengths and alphabets", async () => {
    const { secret } = await generateApiKey();
    expect(isWellFormedApiKey(secret.replace("ak_live_", "ak_test_"))).toBe(false);
    expect(isWellFormedApiKey(secret.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(secret + "x")).toBe(false);
    expect(isWellFormedApiKey(secret.slice(0, 20) + "-" + secret.slice(21))).toBe(false);
    expect(isWellFormedApiKey("")).toBe(false);
  });
});
