import { describe, expect, it } from "vitest";
import { seal, unseal } from "./seal.ts";

describe("seal", () => {
  it("round-trips, never stores the plaintext, and uses a fresh nonce each time", async () => {
    const a = await seal("master", "whsec_abc");
    const b = await seal("master", "whsec_abc");
    expect(a).not.toBe(b);
    expect(a).not.toContain("whsec_abc");
    expect(await unseal("master", a)).toBe("whsec_abc");
  });

  it("refuses the wrong master secret and tampered values", async () => {
    const sealed = await seal("master", "whsec_abc");
    await expect(unseal("other", sealed)).rejects.toThrow();
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === "A" ? "B" : "A") + sealed.at(-1);
    await expect(unseal("master", flipped)).rejects.toThrow();
  });
});
