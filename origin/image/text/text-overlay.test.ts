// Text overlays as the origin draws them: decoded pixels show ink of the asked colour where lg_
// puts it and nowhere else; scripts are shaped; a character the fonts lack is refused by name;
// and the machine's own fonts are never used.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { originTransformSchema, type OriginTransformOptions } from "../../../contracts/origin/image-transform.ts";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { transformImage } from "../transform-image.ts";
import { overlayFont } from "./fonts.ts";
import { textMark } from "./text-overlay.ts";

type TextOverlay = NonNullable<OriginTransformOptions["text_overlay"]>;

const GREY = { r: 128, g: 128, b: 128 };
const FRAME = { width: 2000, height: 400 };

const greyPicture = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: GREY } }).png().toBuffer();

const text = (asked: Partial<TextOverlay> & { text: string }): TextOverlay => ({ font: "sans", size: 32, colour: "000000", padding: 0, gravity: "center", opacity: 100, ...asked });

async function overlaid(source: Uint8Array, asked: TextOverlay) {
  const { bytes } = await transformImage(source, originTransformSchema.parse({ quality: 76, output: "png", text_overlay: asked }));
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, at: (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)] };
}

/** Alpha summed per column of a mark: where along its width the ink lies. */
function inkByColumn(mark: { rgba: Buffer; width: number; height: number }): number[] {
  const columns = new Array<number>(mark.width).fill(0);
  for (let i = 3; i < mark.rgba.length; i += 4) columns[((i - 3) / 4) % mark.width]! += mark.rgba[i]!;
  return columns;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe("a text overlay", () => {
  it("draws ink of its colour in the corner lg_ names and changes nothing elsewhere", async () => {
    const picture = await overlaid(await greyPicture(400, 300), text({ text: "Hello", colour: "ff0000", gravity: "southeast" }));
    let changed = 0;
    let red = 0;
    let left = picture.width;
    let top = picture.height;
    let right = 0;
    let bottom = 0;
    for (let y = 0; y < picture.height; y++) {
      for (let x = 0; x < picture.width; x++) {
        const [r, g, b] = picture.at(x, y);
        if (r === GREY.r && g === GREY.g && b === GREY.b) continue;
        changed++;
        // Anti-aliased edges blend red into grey: more red, less green and blue, never another hue.
        expect(r! >= GREY.r && g! <= GREY.g && g === b).toBe(true);
        if (r === 255 && g === 0) red++;
        [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
      }
    }
    expect(red).toBeGreaterThan(200);
    expect(changed).toBeLessThan(0.05 * picture.width * picture.height);
    // In the bottom-right corner, against both edges, and a word's size.
    expect([right, bottom]).toEqual([picture.width - 1, picture.height - 1]);
    expect(left).toBeGreaterThan(picture.width - 100);
    expect(top).toBeGreaterThan(picture.height - 40);
  });

  it("draws its box with the padding around the text, and lo_ fades it", async () => {
    const source = await greyPicture(300, 200);
    const boxed = await overlaid(source, text({ text: "Hi", colour: "ffffff", box: "0000ff", padding: 10, gravity: "northwest" }));
    expect(boxed.at(0, 0)).toEqual([0, 0, 255]);
    expect(boxed.at(5, 5)).toEqual([0, 0, 255]);
    expect(boxed.at(299, 199)).toEqual([GREY.r, GREY.g, GREY.b]);
    const faded = await overlaid(source, text({ text: "Hi", colour: "ffffff", box: "0000ff", padding: 10, gravity: "northwest", opacity: 50 }));
    const [r, g, b] = faded.at(0, 0);
    expect(Math.abs(r! - 64)).toBeLessThanOrEqual(1);
    expect(g).toBe(r);
    expect(Math.abs(b! - 192)).toBeLessThanOrEqual(1);
  });

  it("draws Pango markup as the characters typed", async () => {
    const tags = await textMark(text({ text: "<b>a</b> & c" }), FRAME);
    const plain = await textMark(text({ text: "a c" }), FRAME);
    expect(tags.width).toBeGreaterThan(plain.width * 2);
  });

  it("is drawn smaller where its size would not fit the output or lw_'s share of it", async () => {
    const wide = await textMark(text({ text: "A wide line of text", size: 200 }), { width: 300, height: 200 });
    expect(wide.width).toBeLessThanOrEqual(300);
    expect(wide.width).toBeGreaterThan(250);
    const share = await textMark(text({ text: "A wide line of text", size: 200, width: 50 }), { width: 300, height: 200 });
    expect(share.width).toBeLessThanOrEqual(150);
    expect(share.width).toBeGreaterThan(120);
  });
});

describe("scripts", () => {
  it("lays Hebrew out right to left: the first letter typed is at the right", async () => {
    // Shin is a wide letter, yod a small one: the line's ink ends with shin's own, or starts with it reversed.
    const shin = inkByColumn(await textMark(text({ text: "ש" }), FRAME));
    const near = (columns: number[]) => columns.every((ink, x) => Math.abs(ink - shin[x]!) <= 255);
    const shinFirst = inkByColumn(await textMark(text({ text: "שיייי" }), FRAME));
    expect(near(shinFirst.slice(-shin.length))).toBe(true);
    expect(near(shinFirst.slice(0, shin.length))).toBe(false);
    const shinLast = inkByColumn(await textMark(text({ text: "יייש" }), FRAME));
    expect(near(shinLast.slice(0, shin.length))).toBe(true);
  });

  it("joins Arabic letters into their connected forms", async () => {
    const isolated = await textMark(text({ text: "ب" }), FRAME);
    const joined = await textMark(text({ text: "بببب" }), FRAME);
    // Unshaped, four isolated behs would be four times one; joined, the initial and medial forms are narrow.
    expect(joined.width).toBeLessThan(3 * isolated.width);
  });

  it("draws Cyrillic and Greek", async () => {
    for (const line of ["Привет, мир", "Γειά σου"]) {
      const mark = await textMark(text({ text: line }), FRAME);
      expect(mark.width).toBeGreaterThan(100);
      expect(sum(inkByColumn(mark))).toBeGreaterThan(255 * 300);
    }
  });
});

describe("characters the fonts cannot draw", () => {
  it("are refused with 422 text_undrawable naming each one", async () => {
    const refusal = transformImage(await greyPicture(100, 100), originTransformSchema.parse({ quality: 76, output: "png", text_overlay: text({ text: "Hi 漢字 漢 ☃" }) }));
    await expect(refusal).rejects.toBeInstanceOf(ProblemError);
    const problem = (await refusal.catch((error: unknown) => error)) as ProblemError;
    expect(problem.slug).toBe("text_undrawable");
    expect(problem.status).toBe(422);
    expect(problem.extensions.characters).toEqual([
      { codepoint: "U+6F22", character: "漢" },
      { codepoint: "U+5B57", character: "字" },
    ]);
    expect(problem.errors?.[0]?.pointer).toBe("/transform/l_text:sans_32:Hi%20%E6%BC%A2%E5%AD%97%20%E6%BC%A2%20%E2%98%83");
  });

  it("are each font's own: serif has no Hebrew, sans has", async () => {
    await expect(textMark(text({ text: "שלום", font: "serif" }), FRAME)).rejects.toMatchObject({ slug: "text_undrawable", extensions: { characters: [{ codepoint: "U+05E9" }, { codepoint: "U+05DC" }, { codepoint: "U+05D5" }, { codepoint: "U+05DD" }] } });
    expect((await textMark(text({ text: "שלום", font: "sans" }), FRAME)).width).toBeGreaterThan(40);
  });

  it("never come from the machine's fonts: Pango, asked for two CJK characters, draws the same missing-glyph box for both", async () => {
    overlayFont("sans");
    // With a system CJK font, 一 is one thin stroke and 龘 a dense block; without one, both are a box of four hex digits.
    const drawn = await Promise.all(
      ["一", "龘"].map((character) => sharp({ text: { text: character, font: "DejaVu Sans 32", dpi: 72 } }).extractChannel(0).raw().toBuffer({ resolveWithObject: true })),
    );
    const [one, dense] = drawn.map(({ data, info }) => ({ width: info.width, height: info.height, ink: sum([...data]) }));
    expect([one!.width, one!.height]).toEqual([dense!.width, dense!.height]);
    expect(one!.ink / dense!.ink).toBeGreaterThan(0.8);
  });
});
