import { describe, expect, it } from "vitest";
import { checkDownloadSignature, signedDownloadUrl } from "./download-signature.ts";

const secret = "test-secret";
const fileId = "file_abcdefghij0123456789";
const accountId = "acct_owner00000000000000";
const now = Date.UTC(2026, 10, 23, 12, 0, 0);
const file = (expiresAt: number | null) => ({ id: fileId, account_id: accountId, expires_at: expiresAt });

function partsOf(url: string) {
  const parsed = new URL(url);
  const q = (name: string) => parsed.searchParams.get(name)!;
  return { path: parsed.pathname, account: q("account"), expires: q("expires"), sig: q("sig") };
}

async function hmacBase64Url(key: string, message: string): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey("raw", new TextEncoder().encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, new TextEncoder().encode(message)));
  return btoa(String.fromCharCode(...mac)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const link = (expires: string, sig: string, over: { fileId?: string; accountId?: string | null } = {}) => ({ fileId, accountId, expires, sig, ...over });

describe("signed download URLs", () => {
  it("signs '<file_id>.<expires>.<account>' with HMAC-SHA256, base64url, expires in whole Unix seconds", async () => {
    const url = await signedDownloadUrl(secret, "https://api.example.com/", file(now + 3_600_999));
    const { path, account, expires, sig } = partsOf(url);
    expect(url.startsWith("https://api.example.com/v1/files/")).toBe(true);
    expect(path).toBe(`/v1/files/${fileId}/content`);
    expect(account).toBe(accountId);
    expect(Number(expires)).toBe(Math.floor((now + 3_600_999) / 1000));
    expect(sig).toBe(await hmacBase64Url(secret, `${fileId}.${expires}.${accountId}`));
    expect(await checkDownloadSignature(secret, link(expires, sig), now)).toBe("valid");
  });

  it("rejects a signature for another file, account, expiry or secret, or a tampered one", async () => {
    const { expires, sig } = partsOf(await signedDownloadUrl(secret, "https://a.test", file(now + 60_000)));
    expect(await checkDownloadSignature(secret, link(expires, sig, { fileId: "file_other000000000000000" }), now)).toBe("invalid");
    expect(await checkDownloadSignature(secret, link(expires, sig, { accountId: "acct_other00000000000000" }), now)).toBe("invalid");
    expect(await checkDownloadSignature(secret, link(expires, sig, { accountId: null }), now)).toBe("invalid");
    expect(await checkDownloadSignature(secret, link(String(Number(expires) + 1), sig), now)).toBe("invalid");
    expect(await checkDownloadSignature("other-secret", link(expires, sig), now)).toBe("invalid");
    const flipped = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
    expect(await checkDownloadSignature(secret, link(expires, flipped), now)).toBe("invalid");
    expect(await checkDownloadSignature(secret, link(expires, sig.slice(0, -1)), now)).toBe("invalid");
    expect(await checkDownloadSignature(secret, link("1e10", sig), now)).toBe("invalid");
  });

  it("still takes a link signed before links named their account", async () => {
    const expires = String(Math.floor(now / 1000) + 60);
    const sig = await hmacBase64Url(secret, `${fileId}.${expires}`);
    expect(await checkDownloadSignature(secret, link(expires, sig, { accountId: null }), now)).toBe("valid");
    expect(await checkDownloadSignature(secret, link(expires, sig), now)).toBe("invalid");
  });

  it("reports a correctly signed link past its expiry as expired", async () => {
    const { expires, sig } = partsOf(await signedDownloadUrl(secret, "https://a.test", file(now + 60_000)));
    expect(await checkDownloadSignature(secret, link(expires, sig), now + 59_999)).toBe("valid");
    expect(await checkDownloadSignature(secret, link(expires, sig), now + 60_000)).toBe("expired");
  });

  it("signs a durable file's link (no expiry) until the file is deleted", async () => {
    const { expires, sig } = partsOf(await signedDownloadUrl(secret, "https://a.test", file(null)));
    expect(expires).toBe("999999999999");
    expect(await checkDownloadSignature(secret, link(expires, sig), Date.UTC(2999, 0, 1))).toBe("valid");
    expect(await checkDownloadSignature(secret, link(expires, sig, { fileId: "file_other000000000000000" }), now)).toBe("invalid");
  });

  it("refuses to sign with an empty secret", async () => {
    await expect(signedDownloadUrl("", "https://a.test", file(now))).rejects.toThrow(/SIGNING_SECRET/);
  });
});
