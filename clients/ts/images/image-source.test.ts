import { describe, expect, it } from "vitest";
import { PixelPressError } from "../api-error.ts";
import { sourceSegment } from "./image-source.ts";
import { transformUrl } from "./transform-url.ts";

const config = { defaultOrigin: "site", origins: { shop: "https://cdn.example.com/images/", bucket: "https://assets.example.org" } };

function refusal(src: string, sources = config): string {
  try {
    sourceSegment(sources, src);
  } catch (error) {
    if (error instanceof PixelPressError) return error.problem.detail;
    throw error;
  }
  throw new Error(`${src} was accepted`);
}

describe("sourceSegment", () => {
  it("takes a file id as it is, rooted or not", () => {
    expect(sourceSegment({}, "file_8kT2bQ7xLw3mZr9Xc1Vd")).toBe("file_8kT2bQ7xLw3mZr9Xc1Vd");
    expect(sourceSegment(config, "/file_8kT2bQ7xLw3mZr9Xc1Vd")).toBe("file_8kT2bQ7xLw3mZr9Xc1Vd");
  });

  it("serves a path from the default origin, encoded as a browser sends it, without its query", () => {
    expect(sourceSegment(config, "/hero.jpg")).toBe("site/hero.jpg");
    expect(sourceSegment(config, "/products/2026/hero shot.jpg?v=3")).toBe("site/products/2026/hero%20shot.jpg");
  });

  it("maps an absolute URL under a configured origin to that origin and path", () => {
    expect(sourceSegment(config, "https://cdn.example.com/images/a/b.jpg")).toBe("shop/a/b.jpg");
    expect(sourceSegment(config, "https://assets.example.org/x.png")).toBe("bucket/x.png");
  });

  it("refuses what the edge would refuse or could not name", () => {
    expect(refusal("https://elsewhere.example.com/a.jpg")).toMatch(/none of the configured origins/);
    expect(refusal("https://cdn.example.com/other/a.jpg")).toMatch(/none of the configured origins/);
    expect(refusal("/hero.jpg", {} as typeof config)).toMatch(/no defaultOrigin/);
    expect(refusal("/a%2Fb.jpg")).toMatch(/encoded slash/);
    expect(refusal("images/a.jpg")).toMatch(/neither a file id/);
  });

  it("writes the URL the edge's route reads", () => {
    const url = transformUrl({ baseUrl: "https://img.example.com", keyId: "key_1", ...config }, "/hero.jpg", { width: 400 });
    expect(url).toBe("https://img.example.com/v1/image/t/key_1/w_400/site/hero.jpg");
  });
});
