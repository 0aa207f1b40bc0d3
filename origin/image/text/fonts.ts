// The fonts a text overlay (`l_text:`) is drawn with: one file per name the token takes, from the
// npm package dejavu-fonts-ttf (DejaVu 2.37: the Bitstream Vera licence, DejaVu's changes in the
// public domain; docs/architecture.md records it). Pango finds fonts through fontconfig, which
// this module points at fonts.conf beside it before anything in the process draws text (fontconfig
// reads FONTCONFIG_FILE once, on first use): that configuration lists only these fonts' folder and
// none of the machine's, and no system settings (hinting, antialiasing) either, so a text is
// drawn alike on every machine and a character these fonts lack can never come from another.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { OverlayFont } from "../../../contracts/transform/text-overlay.ts";
import { readCoverage, type Coverage } from "./cmap.ts";

process.env.FONTCONFIG_FILE = fileURLToPath(new URL("fonts.conf", import.meta.url));

interface ShippedFont {
  /** Its family name, as Pango's font description names it. */
  family: string;
  /** The package's path of its file. */
  file: string;
}

const SHIPPED_FONTS: Record<OverlayFont, ShippedFont> = {
  sans: { family: "DejaVu Sans", file: "dejavu-fonts-ttf/ttf/DejaVuSans.ttf" },
  serif: { family: "DejaVu Serif", file: "dejavu-fonts-ttf/ttf/DejaVuSerif.ttf" },
  mono: { family: "DejaVu Sans Mono", file: "dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf" },
};

export interface OverlayFontFile {
  family: string;
  /** The file itself, handed to libvips too: it is drawn with this file even where fontconfig knows another of its name. */
  path: string;
  coverage: Coverage;
}

const require = createRequire(import.meta.url);
const loaded = new Map<OverlayFont, OverlayFontFile>();

/** The font a name stands for, its coverage read once per process. */
export function overlayFont(name: OverlayFont): OverlayFontFile {
  let font = loaded.get(name);
  if (font === undefined) {
    const { family, file } = SHIPPED_FONTS[name];
    const path = require.resolve(file);
    font = { family, path, coverage: readCoverage(readFileSync(path)) };
    loaded.set(name, font);
  }
  return font;
}
