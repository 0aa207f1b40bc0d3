import { describe, expect, it } from "vitest";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { api, seedCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";

describe("options.format: jpg", () => {
  it("is accepted as jpeg, as f_jpg and the clients accept it, and answers a JPEG named jpeg", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const photo = await generatedBytes("landscape-3.jpg");
    const res = await api("/v1/image/optimize", { key: caller, json: { source: { base64: encodeBase64(photo) }, options: { width: 120, format: "jpg", output: "base64" } } });
    expect(res.status).toBe(200);
    const result = await res.json<{ format: string; base64: string }>();
    expect(result.format).toBe("jpeg");
    const bytes = Uint8Array.from(atob(result.base64), (char) => char.charCodeAt(0));
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });
});
