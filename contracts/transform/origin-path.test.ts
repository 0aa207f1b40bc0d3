import { describe, expect, it } from "vitest";
import { originPathProblem, originUrl } from "./origin-path.ts";

describe("originPathProblem", () => {
  it("accepts paths with slashes and ordinary escapes", () => {
    for (const path of ["/a.jpg", "/products/2026/hero%20shot.jpg", "/x/y/z.webp", "/caf%C3%A9.png", "/a..b.jpg"]) {
      expect(originPathProblem(path), path).toBeNull();
    }
  });

  it("refuses whatever could leave the base URL or smuggle a query", () => {
    for (const path of ["/../secret", "/a/./b", "/a/%2e%2e/b", "/a%2Fb", "/a%2fb", "/a\\b", "/a%5Cb", "/%2E%2E/x", "/a?x=1", "/a#b", "/", "", "/a//b", "/%E0%A4%A.jpg", "/a%00.jpg"]) {
      expect(originPathProblem(path), path).not.toBeNull();
    }
  });

  it("appends the path under the base", () => {
    expect(originUrl("https://cdn.example.com/images/", "/a/b.jpg")).toBe("https://cdn.example.com/images/a/b.jpg");
  });
});
