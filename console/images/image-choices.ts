// The image controls' state as the form holds it (strings from inputs) and the request options it
// stands for. The lists are checked against the generated API types, so a value the API gains or
// drops fails the typecheck here.
import type { OutputFormatAlias } from "../../contracts/output-format-aliases.ts";
import { allOf, type ImageOptions } from "../api/types.ts";

type Fit = NonNullable<ImageOptions["fit"]>;
// An alias (`jpg`) names a format the list already offers.
type Format = Exclude<NonNullable<ImageOptions["format"]>, OutputFormatAlias>;
type AutoQuality = Extract<NonNullable<ImageOptions["quality"]>, string>;
export type ResultDelivery = "base64" | "url";

export const FITS = allOf<Fit>()(["inside", "cover", "contain", "fill"]);
export const FORMATS = allOf<Format>()(["source", "auto", "jpeg", "webp", "avif", "png"]);
export const AUTO_QUALITIES = allOf<AutoQuality>()(["auto", "auto:low", "auto:eco", "auto:good", "auto:best"]);

/** "fixed" uses `fixedQuality`; anything else is an auto level. */
export type QualityChoice = "fixed" | (typeof AUTO_QUALITIES)[number];

export interface ImageChoices {
  width: string;
  fit: Fit;
  format: Format;
  quality: QualityChoice;
  fixedQuality: string;
  maxBytes: string;
  delivery: ResultDelivery;
}

/** The API's own defaults, so an untouched form asks for what a bare request gets. */
export const DEFAULT_CHOICES: ImageChoices = {
  width: "",
  fit: "inside",
  format: "source",
  quality: "fixed",
  fixedQuality: "76",
  maxBytes: "",
  delivery: "base64",
};

const optionalInteger = (text: string): number | null => (text.trim() === "" ? null : Number(text));

/** The request's `options`; an out-of-range number is sent as typed, so the service's own problem names it. */
export function imageRequestOptions(choices: ImageChoices): ImageOptions {
  return {
    width: optionalInteger(choices.width),
    fit: choices.fit,
    format: choices.format,
    quality: choices.quality === "fixed" ? Number(choices.fixedQuality) : choices.quality,
    max_bytes: optionalInteger(choices.maxBytes),
    output: choices.delivery,
  };
}
