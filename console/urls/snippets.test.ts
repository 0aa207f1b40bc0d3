import { describe, expect, it } from "vitest";
import { imgSnippet, pictureSnippet } from "./snippets.ts";

describe("HTML snippets", () => {
  it("writes an <img> with every attribute escaped and empty ones left out", () => {
    const html = imgSnippet({ src: "https://x/v1/image/t/k/w_800/f?a=1&b=2", srcset: "https://x/a 1x, https://x/b 2x", width: 800, height: 533 }, 'A "quoted" <alt>');
    expect(html).toBe(
      '<img src="https://x/v1/image/t/k/w_800/f?a=1&amp;b=2" srcset="https://x/a 1x, https://x/b 2x" width="800" height="533" alt="A &quot;quoted&quot; &lt;alt>" loading="lazy" decoding="async">',
    );
  });

  it("writes one <source> per format before the <img>", () => {
    const html = pictureSnippet(
      { sources: [{ type: "image/avif", srcset: "a.avif 1x" }, { type: "image/webp", srcset: "a.webp 1x", sizes: "100vw" }], img: { src: "a.jpg", srcset: "a.jpg 1x" } },
      "",
    );
    expect(html.split("\n")).toEqual([
      "<picture>",
      '  <source type="image/avif" srcset="a.avif 1x">',
      '  <source type="image/webp" srcset="a.webp 1x" sizes="100vw">',
      '  <img src="a.jpg" srcset="a.jpg 1x" alt="" loading="lazy" decoding="async">',
      "</picture>",
    ]);
  });
});
