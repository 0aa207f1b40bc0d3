// The URL section's controls as the form holds them, and the transform and srcset widths they
// stand for. The token values come from the transform grammar in contracts/, the one the edge parses.
import type { SrcsetOptions } from "../../clients/ts/images/srcset.ts";
import { AUTO_QUALITY_VALUES } from "../../contracts/perceptual-quality.ts";
import { DEFAULT_GRAVITY, faceEffectValues, fitValues, formatTokenValues, gravityValues, overlayGravityValues, type FaceEffectKind, type Gravity } from "../../contracts/transform/token-values.ts";
import { OVERLAY_FONTS } from "../../contracts/transform/text-overlay.ts";

export const URL_FITS = fitValues;
/** `jpg` is only another spelling of `jpeg`, so the control offers one. */
export const URL_FORMATS = formatTokenValues.filter((format) => format !== "jpg");
export const URL_AUTO_QUALITIES = AUTO_QUALITY_VALUES;
export const URL_TEXT_FONTS = OVERLAY_FONTS;
export const URL_TEXT_PLACES = overlayGravityValues;
export const URL_GRAVITIES = gravityValues;
export const URL_FACE_EFFECTS = faceEffectValues;

export interface UrlChoices {
  fileId: string;
  width: string;
  height: string;
  fit: (typeof URL_FITS)[number];
  format: (typeof URL_FORMATS)[number] | "";
  quality: string;
  /** Comma-separated srcset widths; empty: 1x and 2x densities of `width`. */
  widths: string;
  /** `w_auto`: the browser's client hints choose the width, `width` is the fallback; no srcset widths. */
  hintedWidth: boolean;
  /** A text overlay (l_text:); empty: none. */
  text: string;
  textFont: (typeof URL_TEXT_FONTS)[number];
  textSize: string;
  /** `#rrggbb`, as a colour input holds it. */
  textColour: string;
  textPlace: (typeof URL_TEXT_PLACES)[number];
  gravity: Gravity;
  /** z_, towards the faces of a cover crop; empty: none. */
  zoom: string;
  effect: FaceEffectKind | "";
}

export const DEFAULT_URL_CHOICES: UrlChoices = {
  fileId: "",
  width: "800",
  height: "",
  fit: "inside",
  format: "auto",
  quality: "",
  widths: "",
  hintedWidth: false,
  text: "",
  textFont: "sans",
  textSize: "32",
  textColour: "#ffffff",
  textPlace: "southeast",
  gravity: DEFAULT_GRAVITY,
  zoom: "",
  effect: "",
};

const integer = (text: string) => (text.trim() === "" ? undefined : Number(text));

/** The options the client's builders take; a bad value goes to them as typed, so their own problem names it. */
export function urlOptions(choices: UrlChoices): SrcsetOptions {
  if (choices.hintedWidth) return { ...fixedOptions(choices), width: { auto: true, fallback: integer(choices.width) } };
  const widths = choices.widths
    .split(",")
    .map((width) => width.trim())
    .filter((width) => width !== "")
    .map(Number);
  return { ...fixedOptions(choices), ...(widths.length > 0 ? { widths } : {}) };
}

function fixedOptions(choices: UrlChoices): SrcsetOptions {
  const quality = choices.quality.trim();
  return {
    width: integer(choices.width),
    height: integer(choices.height),
    fit: choices.fit === "inside" ? undefined : choices.fit,
    format: choices.format === "" ? undefined : choices.format,
    quality: quality === "" ? undefined : (URL_AUTO_QUALITIES as readonly string[]).includes(quality) ? (quality as (typeof URL_AUTO_QUALITIES)[number]) : Number(quality),
    ...textOptions(choices),
    ...placement(choices),
  };
}

// g_, z_ and e_, each only when the form sets it.
function placement(choices: UrlChoices): Pick<SrcsetOptions, "gravity" | "zoom" | "effect"> {
  const zoom = choices.zoom.trim();
  return {
    ...(choices.gravity === DEFAULT_GRAVITY ? {} : { gravity: choices.gravity }),
    ...(zoom === "" ? {} : { zoom: Number(zoom) }),
    ...(choices.effect === "" ? {} : { effect: { kind: choices.effect } }),
  };
}

function textOptions(choices: UrlChoices): SrcsetOptions {
  if (choices.text === "") return {};
  return { overlay: { font: choices.textFont, size: Number(choices.textSize), text: choices.text }, textColour: choices.textColour.replace(/^#/, ""), overlayGravity: choices.textPlace };
}
