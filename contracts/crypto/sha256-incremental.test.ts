import { describe, expect, it } from "vitest";
import { Sha256 } from "./sha256-incremental.ts";
import { toHex } from "./sha256.ts";

async function webCrypto(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

describe("incremental SHA-256", () => {
  it("gives the FIPS 180-4 digest of 'abc' and of nothing", () => {
    expect(toHex(new Sha256().update(new TextEncoder().encode("abc")).digest())).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(toHex(new Sha256().digest())).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it.each([1, 55, 56, 63, 64, 65, 1000, 100_003])("matches Web Crypto on %i bytes fed in uneven chunks", async (size) => {
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 131 + (i >> 7)) & 0xff;
    const hash = new Sha256();
    for (let at = 0, step = 1; at < size; at += step, step = (step * 7 + 3) % 97) hash.update(bytes.subarray(at, at + step));
    expect(toHex(hash.digest())).toBe(await webCrypto(bytes));
  });
});
