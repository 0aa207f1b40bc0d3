// A text overlay (transform `l_text:`): one line drawn by Pango (sharp's text input, which shapes
// right-to-left and joined scripts) with the origin's own fonts, coloured, on its box, and then
// placed like an image overlay (overlay.ts). A character the font has no glyph for is refused
// before anything is drawn: fontconfig knows no other font to take it from (fonts.ts), and Pango
// would draw a box with its code point instead.
import sharp, { type OutputInfo } from "sharp";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { textOverlayValue, type TransformTextOverlay } from "../../../contracts/transform/text-overlay.ts";
import type { ImageStep } from "../image-step.ts";
import { drawOverlay, faded, type Mark, type Size } from "../overlay.ts";
import { overlayFont, type OverlayFontFile } from "./fonts.ts";

// Joiners, direction marks and variation selectors shape or order the text and have no glyph of their own.
const NO_GLYPH_NEEDED = /\p{Default_Ignorable_Code_Point}/u;

// The size a line that may not fit is first drawn at to measure it; its real size is chosen from that.
const MEASURE_SIZE = 32;

/** Each character of `text` the font cannot draw, once, in the order they first appear. */
export function undrawableCharacters(text: string, font: OverlayFontFile): string[] {
  const missing = new Set<string>();
  for (const character of text) {
    if (!NO_GLYPH_NEEDED.test(character) && !font.coverage.has(character.codePointAt(0)!)) missing.add(character);
  }
  return [...missing];
}

function codepoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

function undrawable(spec: TransformTextOverlay, missing: readonly string[]): ProblemError {
  const named = missing.map((character) => `${codepoint(character)} ${JSON.stringify(character)}`).join(", ");
  const detail = `the font ${spec.font} has no glyph for ${named}`;
  return new ProblemError("text_undrawable", `The text overlay cannot be drawn: ${detail}.`, {
    errors: [{ pointer: `/transform/l_${textOverlayValue(spec)}`, detail }],
    extensions: { characters: missing.map((character) => ({ codepoint: codepoint(character), character })) },
  });
}

// sharp's text is Pango markup: the user's text is written as characters, never as tags.
function markupOf(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** The text's ink as one 8-bit channel, `size` pixels to the em (Pango's points at 72 dpi). */
async function inkMask(text: string, font: OverlayFontFile, size: number): Promise<{ data: Buffer; info: OutputInfo }> {
  const description = `${font.family} ${Math.max(1, size).toFixed(2)}`;
  return sharp({ text: { text: markupOf(text), font: description, fontfile: font.path, dpi: 72 } })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
}

function hexColour(hex: string): { r: number; g: number; b: number; alpha: number } {
  const channel = (at: number) => Number.parseInt(hex.slice(at, at + 2), 16);
  return { r: channel(0), g: channel(2), b: channel(4), alpha: hex.length === 8 ? channel(6) / 255 : 1 };
}

/** The room the box may take: `lw_` percent of the frame's width, else all of it, and the frame's height. */
function roomFor(spec: TransformTextOverlay, frame: Size): Size {
  return { width: spec.width === undefined ? frame.width : Math.max(1, Math.round((frame.width * spec.width) / 100)), height: frame.height };
}

/**
 * The text's ink, drawn at its size, or smaller where its box would not fit the room (drawn smaller,
 * not shrunk after). A line whose characters, an em each, fit is drawn at once: DejaVu's glyphs are
 * at most about an em wide, so it is measured first only when it may not fit.
 */
async function inkThatFits(spec: TransformTextOverlay, font: OverlayFontFile, room: Size): Promise<{ data: Buffer; info: OutputInfo }> {
  const inner = { width: Math.max(1, room.width - 2 * spec.padding), height: Math.max(1, room.height - 2 * spec.padding) };
  if ([...spec.text].length * spec.size <= inner.width && spec.size <= inner.height) return inkMask(spec.text, font, spec.size);
  const measured = (await inkMask(spec.text, font, MEASURE_SIZE)).info;
  const size = Math.min(spec.size, MEASURE_SIZE * Math.min(inner.width / measured.width, inner.height / measured.height));
  return inkMask(spec.text, font, size);
}

/** The text in its colour, padded, on its box: the mark an overlay draws. */
export async function textMark(spec: TransformTextOverlay, frame: Size): Promise<Mark> {
  const font = overlayFont(spec.font);
  const missing = undrawableCharacters(spec.text, font);
  if (missing.length > 0) throw undrawable(spec, missing);
  const room = roomFor(spec, frame);
  const { data: mask, info } = await inkThatFits(spec, font, room);
  const colour = hexColour(spec.colour);
  const text = await sharp({ create: { width: info.width, height: info.height, channels: 3, background: colour } })
    .joinChannel(mask, { raw: { width: info.width, height: info.height, channels: 1 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  const boxSize = { width: info.width + 2 * spec.padding, height: info.height + 2 * spec.padding };
  const background = spec.box === undefined ? { r: 0, g: 0, b: 0, alpha: 0 } : hexColour(spec.box);
  let box = sharp({ create: { ...boxSize, channels: 4, background } }).composite([{ input: text, left: spec.padding, top: spec.padding }]);
  // Hinting may leave the text a pixel past the room it was sized for, and padding alone may exceed it.
  if (boxSize.width > room.width || boxSize.height > room.height) {
    box = sharp(await box.png({ compressionLevel: 0 }).toBuffer()).resize({ ...room, fit: "inside" });
  }
  const drawn = await box.ensureAlpha().raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  return faded(drawn.data, drawn.info, spec.opacity);
}

export function textOverlay(spec: TransformTextOverlay | undefined): ImageStep {
  if (spec === undefined) return function textOverlayStep() {};
  return drawOverlay(spec.gravity, (frame) => textMark(spec, frame));
}
