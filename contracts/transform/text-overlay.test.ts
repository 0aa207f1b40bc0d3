// The text overlay's tokens (l_text:, co_, lb_, lp_): what they read, what they refuse (naming the
// token), their one canonical spelling, and that it survives the URL it is written into.
import { describe, expect, it } from "vitest";
import { canonical, refusal } from "./test-support/parsed-segment.ts";
import { canonicalTransform, resolveTransform } from "./canonical.ts";
import { transformPath } from "./path.ts";
import { edgeAppliesAll } from "./registry.ts";
import { MAX_OVERLAY_TEXT_BYTES } from "./text-overlay.ts";
import { parseTransform } from "./tokens.ts";

// What the edge does to the transform segment of a URL before reading its tokens (transform-address.ts).
const segmentOfUrlPath = (path: string) => decodeURIComponent(path.split("/")[5]!);

describe("l_text:<font>_<size>:<text>", () => {
  it("reads the font, the size and the percent-decoded text", () => {
    expect(parseTransform("l_text:serif_24:Hello%20World%21").overlay).toEqual({ font: "serif", size: 24, text: "Hello World!" });
    // The URL's own decoding already turned %20 into a space: the text reads the same.
    expect(parseTransform("l_text:mono_12:Hello World").overlay).toEqual({ font: "mono", size: 12, text: "Hello World" });
  });

  it("resolves with its colour, box, padding and placement, and only the origin draws it", () => {
    const op = resolveTransform(parseTransform("l_text:sans_32:Hi,co_FF0000,lb_00000080,lp_6,lg_southeast,lw_30,lo_50"));
    expect(op.textOverlay).toEqual({ text: "Hi", font: "sans", size: 32, colour: "ff0000", box: "00000080", padding: 6, gravity: "southeast", width: 30, opacity: 50 });
    expect(op.overlay).toBeUndefined();
    expect(edgeAppliesAll(op)).toBe(false);
  });

  it("has one canonical spelling, in registry order with defaults dropped", () => {
    expect(canonical("lp_4,co_FF8800,lg_southeast,l_text:sans_32:Hello World")).toBe("l_text:sans_32:Hello%20World,lg_southeast,co_ff8800,lp_4");
    expect(canonical("l_text:sans_32:Hi,co_000000,lp_0,lo_100,lg_center")).toBe("l_text:sans_32:Hi");
  });

  it.each([
    ["Hello, World", "Hello%2C%20World"],
    ["100% <b>&amp;</b>", "100%25%20%3Cb%3E%26amp%3B%3C%2Fb%3E"],
    ["שלום עולם", "%D7%A9%D7%9C%D7%95%D7%9D%20%D7%A2%D7%95%D7%9C%D7%9D"],
    ["a:b_c/d", "a%3Ab_c%2Fd"],
  ])("round-trips %j through its canonical form and the URL written from it", (text, spelled) => {
    const written = canonical(`l_text:sans_20:${encodeURIComponent(text)},co_123456`);
    expect(written).toBe(`l_text:sans_20:${spelled},co_123456`);
    expect(parseTransform(written).overlay).toEqual({ font: "sans", size: 20, text });
    const path = transformPath("key_1", written, "file_1");
    expect(segmentOfUrlPath(path)).toBe(written);
    expect(canonicalTransform(parseTransform(segmentOfUrlPath(path)))).toBe(written);
  });

  it(`takes at most ${MAX_OVERLAY_TEXT_BYTES} bytes of UTF-8, and its canonical form still fits a transform`, () => {
    const longest = "ש".repeat(MAX_OVERLAY_TEXT_BYTES / 2);
    const written = canonical(`l_text:sans_400:${longest},co_ffffff,lb_000000ff,lp_200,lg_northwest,lw_100,lo_99,w_8192,h_4096,fit_cover,g_north,f_webp,q_100,pg_2`);
    // With the signature the URL adds.
    expect(parseTransform(`${written},s_${"A".repeat(22)}`).overlay).toMatchObject({ text: longest });
    expect(refusal(`l_text:sans_32:${"a".repeat(MAX_OVERLAY_TEXT_BYTES + 1)}`)?.detail).toBe(`l_ text has ${MAX_OVERLAY_TEXT_BYTES + 1} bytes of UTF-8; at most ${MAX_OVERLAY_TEXT_BYTES} are drawn`);
    expect(refusal(`l_text:sans_32:${longest}ש`)?.detail).toBe(`l_ text has ${MAX_OVERLAY_TEXT_BYTES + 2} bytes of UTF-8; at most ${MAX_OVERLAY_TEXT_BYTES} are drawn`);
  });

  it.each([
    ["l_text:sans_32", "must be a file id"],
    ["l_text:comic_32:Hi", "must be a file id"],
    ["l_text:sans_5:Hi", "must be a file id"],
    ["l_text:sans_401:Hi", "must be a file id"],
    ["l_text:sans_32_1:Hi", "must be a file id"],
    ["l_text:sans_32:", "text must hold something to draw"],
    ["l_text:sans_32:%20%E2%80%8F%20", "text must hold something to draw"],
    ["l_text:sans_32:100%", "text must be percent-encoded UTF-8"],
    ["l_text:sans_32:%FF", "text must be percent-encoded UTF-8"],
    ["l_text:sans_32:a%0Ab", "text must be one line"],
  ])("refuses %s, naming the token", (segment, detail) => {
    const refused = refusal(segment);
    expect(refused?.pointer).toBe(`/transform/${segment}`);
    expect(refused?.detail).toContain(`l_ ${detail}`);
  });

  it("keeps l_ with a file id as an image overlay", () => {
    const op = resolveTransform(parseTransform("l_file_8kT2bQ7xLw3mZr9Xc1Vd,lg_north,co_ff0000,lp_4"));
    expect(op.overlay).toMatchObject({ fileId: "file_8kT2bQ7xLw3mZr9Xc1Vd", gravity: "north" });
    expect(op.textOverlay).toBeUndefined();
  });
});

describe("co_, lb_, lp_", () => {
  it("fold away without a text overlay, and with lo_0", () => {
    expect(canonical("w_10,co_ff0000,lb_000000,lp_5")).toBe("w_10");
    expect(canonical("l_file_8kT2bQ7xLw3mZr9Xc1Vd,co_ff0000,lb_000000,lp_5")).toBe("l_file_8kT2bQ7xLw3mZr9Xc1Vd");
    expect(canonical("w_10,l_text:sans_32:Hi,co_ff0000,lo_0")).toBe("w_10");
  });

  it.each([
    ["co_12345", "co_ must be six hex digits RRGGBB"],
    ["co_ff000080", "co_ must be six hex digits RRGGBB"],
    ["lb_1234567", "lb_ must be RRGGBB or RRGGBBAA hex digits"],
    ["lp_201", "lp_ must be a whole number from 0 to 200"],
  ])("refuses %s", (segment, detail) => {
    expect(refusal(segment)).toEqual({ pointer: `/transform/${segment}`, detail });
  });
});
