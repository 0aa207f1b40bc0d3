import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { storeFile } from "../files/file-store.ts";
import { api, seedCaller } from "../test-support/api.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { publicBaseUrl } from "./public-base-url.ts";

const FORGED = "evil.example";

async function readyFile(accountId: string): Promise<string> {
  const body = new Uint8Array([1, 2, 3]);
  const record = await storeFile(env, { accountId, kind: "result", body, size: body.length, contentType: "image/png", expiresAt: Date.now() + 3_600_000 });
  return record.id;
}

describe("links are built on the public base URL, never on the request's Host", () => {
  it("signs a file's download URL on PUBLIC_BASE_URL when the Host header is forged", async () => {
    const caller = await seedCaller();
    const fileId = await readyFile(caller.accountId);
    const res = await api(`/v1/files/${fileId}`, { key: caller, host: FORGED });
    expect(res.status).toBe(200);
    const { download_url: url } = await res.json<{ download_url: string }>();
    expect(new URL(url).origin).toBe("http://api.test");
    expect(url).not.toContain(FORGED);
  });

  it("gives an optimized output's URL on PUBLIC_BASE_URL, and upload endpoints too", async () => {
    const caller = await seedCaller();
    const res = await api("/v1/image/optimize", {
      key: caller,
      host: FORGED,
      json: { source: { base64: encodeBase64(await generatedBytes("rgb.png")) }, options: { format: "webp" } },
    });
    expect(res.status).toBe(200);
    const { url } = await res.json<{ url: string }>();
    expect(new URL(url).origin).toBe("http://api.test");
    const upload = await api("/v1/uploads", { key: caller, host: FORGED, json: { content_type: "image/png", size_bytes: 3 } });
    expect(upload.status).toBe(201);
    const { upload: target } = await upload.json<{ upload: { url: string } }>();
    expect(new URL(target.url).origin).toBe("http://api.test");
  });

  it("keeps a configured alias host, which serves the links too, and refuses to guess without a base URL", async () => {
    const caller = await seedCaller();
    const fileId = await readyFile(caller.accountId);
    const onAlias = await fetchWithEnv(
      { PDF_ALIAS_HOSTS: "files.alias.test" },
      new Request(`http://files.alias.test/v1/files/${fileId}`, { headers: { Authorization: `Bearer ${caller.secret}` } }),
    );
    expect(onAlias.status).toBe(200);
    expect(new URL((await onAlias.json<{ download_url: string }>()).download_url).origin).toBe("http://files.alias.test");
    const aliasEnv = { PUBLIC_BASE_URL: "https://api.example:8443/ignored/path", IMAGE_ALIAS_HOSTS: "img.example", PDF_ALIAS_HOSTS: "" };
    expect(publicBaseUrl(aliasEnv, "http://IMG.example/v1/files/x")).toBe("https://img.example:8443");
    expect(publicBaseUrl(aliasEnv, `http://${FORGED}/v1/files/x`)).toBe("https://api.example:8443");
    expect(() => publicBaseUrl({ ...aliasEnv, PUBLIC_BASE_URL: "" }, "http://api.example/")).toThrow(/PUBLIC_BASE_URL/);
  });
});
