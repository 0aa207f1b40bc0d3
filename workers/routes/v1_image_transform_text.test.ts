// l_text: through the transform path: the edge sends it to the origin, which draws it; it is cached
// and billed as any derivative; the text the fonts cannot draw is a 422 charged nothing; and a
// signature covers the text, written into the URL as the client writes it.
import { describe, expect, it } from "vitest";
import { canonicalTransform } from "../../contracts/transform/canonical.ts";
import { transformPath } from "../../contracts/transform/path.ts";
import { transformSignature } from "../../contracts/transform/signature.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";
import { decodePixels, encodePixels } from "../edge-image/codecs.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";

const GREY = [128, 128, 128];

async function greySource(caller: TestCaller): Promise<string> {
  const data = new Uint8ClampedArray(200 * 100 * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...GREY, 255], i);
  return seedSource(caller, await encodePixels("png", { data, width: 200, height: 100 }, 100), "image/png");
}

async function signingSecret(caller: TestCaller): Promise<string> {
  const issued = await api(`/v1/keys/${caller.keyId}/signing-secret`, { key: caller, method: "POST" });
  expect(issued.status).toBe(200);
  return (await issued.json<{ signing_secret: string }>()).signing_secret;
}

describe("GET /v1/image/t/{key_id}/l_text:.../{file_id}", () => {
  it("is drawn at the origin in its colour and corner only, and billed once as a derivative", async () => {
    const caller = await seedCaller();
    const fileId = await greySource(caller);
    const url = transformUrl(caller, "w_100,f_png,l_text:sans_14:A%2520B,co_FF0000,lg_southeast", fileId);
    const res = await api(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Transform-Engine")).toBe("origin");
    const image = await decodePixels("png", new Uint8Array(await res.arrayBuffer()));
    expect([image.width, image.height]).toEqual([100, 50]);
    let red = 0;
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const [r, g, b] = image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3);
        if (r === 255 && g === 0 && b === 0) red++;
        // Ink only in the bottom-right quarter: every other pixel is the source's grey.
        if (x < 50 || y < 25) expect([r, g, b]).toEqual(GREY);
      }
    }
    expect(red).toBeGreaterThan(10);
    expect((await api(url)).status).toBe(200);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });

  it("refuses text its font cannot draw with 422 text_undrawable, charged nothing", async () => {
    const caller = await seedCaller();
    const fileId = await greySource(caller);
    const res = await api(transformUrl(caller, "f_png,l_text:sans_16:Hi%20%E6%BC%A2", fileId));
    expect(res.status).toBe(422);
    const problem: Awaited<ReturnType<typeof problemOf>> & { characters?: unknown } = await problemOf(res);
    expect(problem.characters).toEqual([{ codepoint: "U+6F22", character: "漢" }]);
    expect(problem.type).toBe("https://pixelpress.dev/problems/text_undrawable");
    expect(problem.detail).toContain("U+6F22");
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });

  it("is covered by the signature: the client's URL of a signed text is served, the same signature on another text is refused", async () => {
    const caller = await seedCaller();
    const fileId = await greySource(caller);
    const secret = await signingSecret(caller);
    // A comma, a space and a percent sign: each would break the URL if the text were written into it unescaped.
    const canonical = canonicalTransform(parseTransform(`f_png,l_text:serif_14:${encodeURIComponent("5, 10 & 100%")}`));
    const signature = await transformSignature(secret, transformPath(caller.keyId, canonical, fileId));
    const signed = await api(transformPath(caller.keyId, `${canonical},s_${signature}`, fileId));
    expect(signed.status).toBe(200);
    await signed.arrayBuffer();
    const otherText = canonical.replace("5%2C", "6%2C");
    expect(otherText).not.toBe(canonical);
    const forged = await api(transformPath(caller.keyId, `${otherText},s_${signature}`, fileId));
    expect(forged.status).toBe(403);
    expect((await problemOf(forged)).type).toBe("https://pixelpress.dev/problems/transform_signature_invalid");
  });
});
