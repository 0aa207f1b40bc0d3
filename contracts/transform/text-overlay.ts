// A text overlay (transform `l_text:<font>_<size>:<text>`): a line of text drawn over the output
// like an image overlay, placed by lg_, sized by lw_ and faded by lo_, its colour co_, its box lb_
// and lp_. The fonts are the origin's own (origin/image/text/fonts.ts maps each name to its file);
// the names, limits and the token's spelling are declared here, where the edge's parser, the
// typed client and the browser URL builder read them. No schema library is imported on this path.
import { TokenError } from "./token-grammar.ts";
import type { OverlayGravity } from "./token-values.ts";

/** The font names `l_text:` takes; the origin ships one open-licensed font for each. */
export const OVERLAY_FONTS = ["sans", "serif", "mono"] as const;
export type OverlayFont = (typeof OVERLAY_FONTS)[number];

/** The font size in output pixels (the em). */
export const textSizeRange = { min: 6, max: 400 } as const;

/**
 * The text's limit in UTF-8 bytes (100 Latin letters, 50 Cyrillic, Hebrew or Arabic ones, 33 CJK):
 * its canonical spelling percent-encodes every byte beyond ASCII, and three characters a byte must
 * still fit a transform (MAX_TRANSFORM_LENGTH) with the other tokens.
 */
export const MAX_OVERLAY_TEXT_BYTES = 100;

/** The padding around the text inside its box (lp_), in output pixels. */
export const textPaddingRange = { min: 0, max: 200 } as const;

export const TEXT_COLOUR_HEX = /^[0-9a-fA-F]{6}$/;
export const TEXT_COLOUR_LOWER_HEX = /^[0-9a-f]{6}$/;
/** The box's colour: RRGGBB, or RRGGBBAA for a see-through box. */
export const TEXT_BOX_HEX = /^[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/;
export const TEXT_BOX_LOWER_HEX = /^[0-9a-f]{6}([0-9a-f]{2})?$/;
export const DEFAULT_TEXT_COLOUR = "000000";
export const DEFAULT_TEXT_PADDING = 0;

// One line of text: control characters (a line break among them) are refused.
const CONTROL = /\p{Cc}/u;
const NOTHING_TO_DRAW = /^[\s\p{Default_Ignorable_Code_Point}]*$/u;
/** The decoded text as it travels to the origin: the byte limit is the parser's, and it bounds the characters too. */
export const OVERLAY_TEXT_PATTERN = new RegExp(`^[^\\p{Cc}]{1,${MAX_OVERLAY_TEXT_BYTES}}$`, "u");

const TEXT_PREFIX = "text:";

/** What `l_text:` asks for: the font, its size and the decoded text. */
export interface AskedText {
  font: OverlayFont;
  size: number;
  text: string;
}

export const TEXT_SPELLING = `text:<font>_<size>:<text>, the font one of ${OVERLAY_FONTS.join(", ")}, the size a whole number of pixels from ${textSizeRange.min} to ${textSizeRange.max}, the text percent-encoded UTF-8 of at most ${MAX_OVERLAY_TEXT_BYTES} bytes on one line`;

export function isTextOverlaySpelling(value: string): boolean {
  return value.startsWith(TEXT_PREFIX);
}

function decodedText(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new TokenError(`text must be percent-encoded UTF-8: write % as %25 and a comma as %2C (the URL's path is decoded once before its tokens are read, so in a URL they are %2525 and %252C)`);
  }
}

/** `text:sans_32:Hello%20World` → { font: "sans", size: 32, text: "Hello World" }. */
export function textOverlayIn(value: string): AskedText {
  const rest = value.slice(TEXT_PREFIX.length);
  const cut = rest.indexOf(":");
  const [font, size, extra] = (cut < 0 ? rest : rest.slice(0, cut)).split("_");
  const sizeValue = Number(size);
  if (cut < 0 || extra !== undefined || !(OVERLAY_FONTS as readonly string[]).includes(font!) || !/^\d{1,3}$/.test(size ?? "") || sizeValue < textSizeRange.min || sizeValue > textSizeRange.max) {
    throw new TokenError(`must be a file id (file_...) or ${TEXT_SPELLING}`);
  }
  const text = decodedText(rest.slice(cut + 1));
  if (NOTHING_TO_DRAW.test(text)) throw new TokenError("text must hold something to draw, not only spaces");
  if (CONTROL.test(text)) throw new TokenError("text must be one line without control characters");
  const bytes = new TextEncoder().encode(text).byteLength;
  if (bytes > MAX_OVERLAY_TEXT_BYTES) throw new TokenError(`text has ${bytes} bytes of UTF-8; at most ${MAX_OVERLAY_TEXT_BYTES} are drawn`);
  return { font: font as OverlayFont, size: sizeValue, text };
}

/** The token's one spelling of a text overlay: every byte but the unreserved ASCII ones percent-encoded. */
export function textOverlayValue(asked: AskedText): string {
  return `${TEXT_PREFIX}${asked.font}_${asked.size}:${encodeURIComponent(asked.text)}`;
}

/** The text overlay a transform draws, resolved: what the origin renders. */
export interface TransformTextOverlay {
  text: string;
  font: OverlayFont;
  size: number;
  /** RRGGBB, lower case. */
  colour: string;
  /** RRGGBB or RRGGBBAA, lower case; undefined: no box. */
  box?: string;
  padding: number;
  gravity: OverlayGravity;
  /** Percent of the output's width the box is scaled to; undefined keeps its own size (shrunk to fit the output). */
  width?: number;
  /** Percent, 1 to 100. */
  opacity: number;
}
