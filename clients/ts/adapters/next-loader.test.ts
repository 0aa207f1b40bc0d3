import { describe, expect, it } from "vitest";
import { createNextLoader } from "./next-loader.ts";
import { account, refusalDetail, transformBase } from "./test-support/adapter-account.ts";

const loader = createNextLoader(account);

describe("the Next.js loader", () => {
  it("writes one canonical URL per width Next asks for, f_auto by default", () => {
    expect(loader({ src: "file_1", width: 640, quality: 75 })).toBe(`${transformBase}/w_640,q_75,f_auto/file_1`);
    expect(loader({ src: "/file_1", width: 3840 })).toBe(`${transformBase}/w_3840,f_auto/file_1`);
  });

  it("rounds widths and qualities, and drops the edge's default quality", () => {
    expect(loader({ src: "file_1", width: 639.5, quality: 74.6 })).toBe(`${transformBase}/w_640,q_75,f_auto/file_1`);
    expect(loader({ src: "file_1", width: 640, quality: 76 })).toBe(`${transformBase}/w_640,f_auto/file_1`);
  });

  it("keeps the tokens it was configured with", () => {
    const webp = createNextLoader({ ...account, transform: { format: "webp", sharpen: 0.5 } });
    expect(webp({ src: "file_1", width: 256, quality: 50 })).toBe(`${transformBase}/w_256,q_50,f_webp,sh_0.5/file_1`);
  });

  it("refuses a src that is not a file id, and what the edge refuses in its own words", () => {
    expect(refusalDetail(() => loader({ src: "https://example.com/cat.jpg", width: 640 }))).toContain("takes a PixelPress file id as src");
    expect(refusalDetail(() => loader({ src: "/images/cat.jpg", width: 640 }))).toContain("takes a PixelPress file id as src");
    expect(refusalDetail(() => loader({ src: "file_1", width: 9000 }))).toBe("w_ must be a whole number from 1 to 8192");
    expect(refusalDetail(() => loader({ src: "file_1", width: 640, quality: 0 }))).toBe("q_ must be a whole number from 1 to 100");
  });
});

describe("Next.js loader with origins", () => {
  it("serves <Image src=\"/hero.jpg\"> from the default origin, and a URL under a named origin from it", () => {
    const loader = createNextLoader({ baseUrl: "https://img.example.com", keyId: "key_1", defaultOrigin: "site", origins: { shop: "https://cdn.example.com/" } });
    expect(loader({ src: "/hero.jpg", width: 640 })).toBe("https://img.example.com/v1/image/t/key_1/w_640,f_auto/site/hero.jpg");
    expect(loader({ src: "https://cdn.example.com/p/a.jpg", width: 320, quality: 60 })).toBe("https://img.example.com/v1/image/t/key_1/w_320,q_60,f_auto/shop/p/a.jpg");
  });
});
