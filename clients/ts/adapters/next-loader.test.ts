import { describe, expect, it } from "vitest";
import { PixelPressError } from "../api-error.ts";
import { createNextLoader } from "./next-loader.ts";

const loader = createNextLoader({ baseUrl: "https://img.example.com", keyId: "key_pub" });
const base = "https://img.example.com/v1/image/t/key_pub";

function detailOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PixelPressError);
    return (error as PixelPressError).problem.detail;
  }
  throw new Error("expected a refusal");
}

describe("the Next.js loader", () => {
  it("writes one canonical URL per width Next asks for, f_auto by default", () => {
    expect(loader({ src: "file_1", width: 640, quality: 75 })).toBe(`${base}/w_640,q_75,f_auto/file_1`);
    expect(loader({ src: "/file_1", width: 3840 })).toBe(`${base}/w_3840,f_auto/file_1`);
  });

  it("rounds widths and qualities, and drops the edge's default quality", () => {
    expect(loader({ src: "file_1", width: 639.5, quality: 74.6 })).toBe(`${base}/w_640,q_75,f_auto/file_1`);
    expect(loader({ src: "file_1", width: 640, quality: 76 })).toBe(`${base}/w_640,f_auto/file_1`);
  });

  it("keeps the tokens it was configured with", () => {
    const webp = createNextLoader({ baseUrl: "https://img.example.com", keyId: "key_pub", transform: { format: "webp", sharpen: 0.5 } });
    expect(webp({ src: "file_1", width: 256, quality: 50 })).toBe(`${base}/w_256,q_50,f_webp,sh_0.5/file_1`);
  });

  it("refuses a src that is not a file id, and what the edge refuses in its own words", () => {
    expect(detailOf(() => loader({ src: "https://example.com/cat.jpg", width: 640 }))).toContain("takes a PixelPress file id as src");
    expect(detailOf(() => loader({ src: "/images/cat.jpg", width: 640 }))).toContain("takes a PixelPress file id as src");
    expect(detailOf(() => loader({ src: "file_1", width: 9000 }))).toBe("w_ must be a whole number from 1 to 8192");
    expect(detailOf(() => loader({ src: "file_1", width: 640, quality: 0 }))).toBe("q_ must be a whole number from 1 to 100");
  });
});
