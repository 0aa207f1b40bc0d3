import { describe, expect, it } from "vitest";
import { PixelPressError } from "../api-error.ts";
import { createPixelPress } from "../client.ts";
import { blurProps, placeholderFor, placeholderStyle, type ImagePlaceholder } from "./placeholder.ts";

const PLACEHOLDER: ImagePlaceholder = {
  thumbhash: "3OcRJYB4d3h/iIeHeEh3eIhw+j3A",
  blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj",
  dominant_color: "#a1b2c3",
  lqip: "data:image/webp;base64,UklGRlIAAABXRUJQVlA4IEYAAAA=",
  width: 1800,
  height: 1200,
};

function clientAnswering(status: number, body: unknown, seen: Request[] = []) {
  return createPixelPress({
    apiKey: "sk_test",
    baseUrl: "https://api.example",
    retry: { retries: 0 },
    fetch: (input, init) => {
      seen.push(new Request(input, init));
      return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": status < 400 ? "application/json" : "application/problem+json" } }));
    },
  });
}

describe("placeholderFor", () => {
  it("GETs the file's placeholder with the API key and returns it as sent", async () => {
    const seen: Request[] = [];
    const placeholder = await placeholderFor(clientAnswering(200, PLACEHOLDER, seen), "file_abc");
    expect(placeholder).toEqual(PLACEHOLDER);
    expect(seen.map((r) => [r.method, r.url, r.headers.get("Authorization")])).toEqual([["GET", "https://api.example/v1/files/file_abc/placeholder", "Bearer sk_test"]]);
  });

  it("throws the API's problem", async () => {
    const problem = { type: "https://docs.pixelpress.dev/problems/not_found", title: "Not found", status: 404, detail: "No file file_x in this account." };
    const error = await placeholderFor(clientAnswering(404, problem), "file_x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PixelPressError);
    expect((error as PixelPressError).problem).toMatchObject({ status: 404, detail: problem.detail });
  });
});

describe("blurProps and placeholderStyle", () => {
  it("give next/image's blur props and a plain <img> background from the same LQIP", () => {
    expect(blurProps(PLACEHOLDER)).toEqual({ placeholder: "blur", blurDataURL: PLACEHOLDER.lqip, width: 1800, height: 1200 });
    expect(placeholderStyle(PLACEHOLDER)).toBe(
      `background-color:#a1b2c3;background-image:url("${PLACEHOLDER.lqip}");background-size:cover;background-repeat:no-repeat`,
    );
  });
});
