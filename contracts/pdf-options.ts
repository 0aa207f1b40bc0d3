// Options of the PDF engine (analyze and compress), shared by the edge (validation,
// OpenAPI) and the origin (the engine reads the parsed output type). The profile
// table lives here once: the origin resolves profiles from it and the schema
// description is generated from it, so the documentation cannot drift.
import { z } from "@hono/zod-openapi";
import { outputModeSchema } from "./envelope.ts";

export const PDF_FIXED_PROFILES = ["screen", "email", "ebook", "print", "prepress"] as const;
export type PdfFixedProfile = (typeof PDF_FIXED_PROFILES)[number];

export const PDF_INTENTS = ["web", "email", "reading", "print", "archive"] as const;
export type PdfIntent = (typeof PDF_INTENTS)[number];

export const PDF_DEFAULT_IMAGE_QUALITY = 76;
export const PDF_DPI_LIMIT = 2400;

export interface PdfProfileParameters {
  /** Resolution each image is brought down to, at its largest placement on a page. */
  targetDpi: number;
  /** A fixed JPEG quality, or "image_quality" to use the option (default 76). */
  quality: number | "image_quality";
  /** Downsample only when the effective DPI exceeds targetDpi by more than this factor. */
  downsampleThreshold: number;
  /** The lowest resolution a size target (`max_size_mb`, `max_base64_bytes`) may bring images down to. */
  floorDpi: number;
  /** Resolution 1-bit images (scans, stencil masks) are brought down to: text needs more than continuous tone. */
  bilevelDpi: number;
}

export const PDF_PROFILE_PARAMETERS: Record<PdfFixedProfile, PdfProfileParameters> = {
  screen: { targetDpi: 72, quality: 50, downsampleThreshold: 1.25, floorDpi: 36, bilevelDpi: 300 },
  email: { targetDpi: 96, quality: 60, downsampleThreshold: 1.25, floorDpi: 48, bilevelDpi: 300 },
  ebook: { targetDpi: 150, quality: "image_quality", downsampleThreshold: 1.25, floorDpi: 72, bilevelDpi: 300 },
  print: { targetDpi: 300, quality: "image_quality", downsampleThreshold: 1.25, floorDpi: 150, bilevelDpi: 1200 },
  prepress: { targetDpi: 300, quality: 90, downsampleThreshold: 1.5, floorDpi: 200, bilevelDpi: 1200 },
};

/** What `profile: "auto"` becomes for each `intent`; without an intent, auto is ebook. */
export const PDF_INTENT_PROFILE: Record<PdfIntent, PdfFixedProfile> = {
  web: "screen",
  email: "email",
  reading: "ebook",
  print: "print",
  archive: "prepress",
};

/** `custom` uses `max_dpi` as its target, for 1-bit images too, and `image_quality`; without `max_dpi` it resamples nothing. */
export const PDF_CUSTOM_DOWNSAMPLE_THRESHOLD = 1.25;
/** `custom`'s resolution floor under a size target, never above its own target. */
export const PDF_CUSTOM_FLOOR_DPI = 72;

export const PDF_DEFAULT_MIN_QUALITY = 60;
export const PDF_DEFAULT_SSIM_THRESHOLD = 0.97;
/** Pages are rendered at this resolution for `verify_quality`: below it, downsampled stripes and halftones alias differently in the two renders. */
export const PDF_VERIFY_DPI = 100;
/** `zopfli` spends at most this long per file; the remaining streams keep their Flate encoding. */
export const PDF_ZOPFLI_BUDGET_MS = 30_000;
/** A megabyte of `max_size_mb`, as in the size tiers of the pricing. */
export const PDF_BYTES_PER_MB = 1024 * 1024;

function describeProfiles(): string {
  const lines = PDF_FIXED_PROFILES.map((name) => {
    const p = PDF_PROFILE_PARAMETERS[name];
    const quality = p.quality === "image_quality" ? "`image_quality`" : `quality ${p.quality}`;
    return `\`${name}\`: ${p.targetDpi} dpi, ${quality}, downsample above ${p.targetDpi * p.downsampleThreshold} dpi (x${p.downsampleThreshold}), size-target floor ${p.floorDpi} dpi, 1-bit images ${p.bilevelDpi} dpi (with \`jbig2\` on)`;
  });
  const intents = PDF_INTENTS.map((i) => `${i}→${PDF_INTENT_PROFILE[i]}`).join(", ");
  return [
    "Compression profile. Each image is resampled to the profile's DPI at its largest placement on a page (never upsampled), then re-encoded.",
    ...lines,
    `\`custom\`: \`image_quality\` at \`max_dpi\` (downsample above x${PDF_CUSTOM_DOWNSAMPLE_THRESHOLD}, 1-bit images too); without \`max_dpi\` no image is resampled, each keeps the resolution its placement gives it and is only re-encoded; size-target floor ${PDF_CUSTOM_FLOOR_DPI} dpi (or \`max_dpi\` when lower)`,
    `\`auto\` (default): picks a profile from \`intent\` (${intents}); ebook without an intent.`,
  ].join("; ");
}

export const PDF_PROFILE_DESCRIPTION = describeProfiles();

const password = z.string().max(1024).nullable().default(null).openapi({
  example: null,
  description: "Password of an encrypted PDF (user or owner). Required when the file needs one: 422 `pdf_password_required`, or `pdf_password_invalid` when wrong.",
});

export const pdfCompressOptionsSchema = z
  .object({
    profile: z.enum(["auto", ...PDF_FIXED_PROFILES, "custom"]).default("auto").openapi({
      example: "ebook",
      description: PDF_PROFILE_DESCRIPTION,
    }),
    intent: z.enum(PDF_INTENTS).nullable().default(null).openapi({
      example: null,
      description: "What the output is for; only `profile: auto` reads it.",
    }),
    password,
    allow_signature_break: z.boolean().default(false).openapi({
      example: false,
      description: "Compress a signed PDF anyway (its signatures become invalid). Without it a signed PDF is 422 `pdf_signed`.",
    }),
    allow_conformance_break: z.boolean().default(false).openapi({
      example: false,
      description:
        "Compress a PDF/A or PDF/X file anyway; the output then drops its conformance claim (XMP identification and output intents). Without it such a file is 422 `pdf_conformance`.",
    }),
    max_dpi: z.number().int().min(9).max(PDF_DPI_LIMIT).nullable().default(null).openapi({
      example: null,
      description:
        "Ceiling on every image's effective resolution (1-bit images included), applied on top of the profile; for `custom` it is the target. Default null = no ceiling beyond the profile's: the placement of each image on the page decides its resolution, and `custom` then resamples nothing (images are only re-encoded at `image_quality`).",
    }),
    image_quality: z.number().int().min(1).max(100).default(PDF_DEFAULT_IMAGE_QUALITY).openapi({
      example: PDF_DEFAULT_IMAGE_QUALITY,
      description: "JPEG quality (1 to 100, MozJPEG, baseline) for re-encoded continuous-tone images, used by `ebook`, `print`, `custom` and `auto` when it resolves to one of those.",
    }),
    grayscale: z.boolean().default(false).openapi({
      example: false,
      description: "Convert every re-encodable image to gray. Text and vector colours are left as they are.",
    }),
    strip: z
      .object({
        metadata: z.boolean().default(true).openapi({ description: "Remove XMP metadata streams and document info except the title." }),
        thumbnails: z.boolean().default(true).openapi({ description: "Remove embedded page thumbnails." }),
        javascript: z.boolean().default(true).openapi({ description: "Remove document, page, annotation and form-field JavaScript." }),
        embedded_files: z.boolean().default(true).openapi({ description: "Remove attached files (the EmbeddedFiles name tree and associated files). The editable source a LibreOffice hybrid PDF carries (trailer /AdditionalStreams) is dropped either way: the rewritten file cannot keep its link." }),
        annotations: z.boolean().default(false).openapi({ description: "Remove annotations, keeping links and form widgets." }),
        structure_tree: z.boolean().default(false).openapi({ description: "Remove the structure tree (tagging); the file is then no longer tagged." }),
      })
      .strict()
      .prefault({})
      .openapi({ description: "What to remove from the file." }),
    fonts: z
      .object({
        subset: z.boolean().default(true).openapi({ description: "Keep only the glyphs the document uses in embedded fonts." }),
        dedupe: z.boolean().default(true).openapi({ description: "Merge byte-identical font programs and descriptors." }),
      })
      .strict()
      .prefault({})
      .openapi({ description: "Font optimisation." }),
    dedupe_images: z.boolean().default(true).openapi({
      example: true,
      description: "Merge byte-identical image streams so a repeated image is stored once.",
    }),
    max_size_mb: z.number().positive().max(200).nullable().default(null).openapi({
      example: null,
      description:
        "Size target in MB (1 MB = 1,048,576 bytes). Image quality is lowered from the profile's quality towards `min_quality` (never below it), then image resolution towards the profile's size-target floor, until the file fits; the highest quality that fits wins. `stats.target_met` says whether it did; when it cannot, the smallest result at `min_quality` and the floor resolution comes back with `target_met: false`.",
    }),
    max_base64_bytes: z.number().int().positive().nullable().default(null).openapi({
      example: null,
      description: "Size target as base64 characters (4 * ceil(bytes / 3)), for outputs embedded in JSON or email; searched like `max_size_mb`, and the smaller of the two applies.",
    }),
    min_quality: z.number().int().min(1).max(100).default(PDF_DEFAULT_MIN_QUALITY).openapi({
      example: PDF_DEFAULT_MIN_QUALITY,
      description:
        "Floor of the size target's quality search (`max_size_mb`, `max_base64_bytes`): no re-encoded image goes below it. Under a size target a profile whose own quality is lower (`screen` 50) is raised to it; when the target cannot be met at it, resolution is lowered, then the smallest result at it comes back with `target_met: false`. Without a size target it is not used.",
    }),
    verify_quality: z.boolean().default(false).openapi({
      example: false,
      description: `Render every page of input and output at ${PDF_VERIFY_DPI} dpi with MuPDF, compare luma SSIM (Wang et al. 2004), and re-encode the images of pages below \`ssim_threshold\` at higher quality, or keep them original, until every page passes. Per-page SSIM in \`stats.verify\`. Runs after a size target and wins over it (restored images can push the file back over). Costs $0.005 more, only when the PDF was made smaller.`,
    }),
    ssim_threshold: z.number().min(0.5).max(1).default(PDF_DEFAULT_SSIM_THRESHOLD).openapi({
      example: PDF_DEFAULT_SSIM_THRESHOLD,
      description: "The lowest page SSIM `verify_quality` accepts.",
    }),
    zopfli: z.boolean().default(false).openapi({
      example: false,
      description: `Recompress Flate streams (content, fonts, lossless images) with Zopfli, smallest first, keeping a stream only when smaller: typically 2 to 5% off those streams. Slow (seconds per MB of streams), so capped at ${PDF_ZOPFLI_BUDGET_MS / 1000} s per file; streams past the cap stay as they were. CPU time, bytes saved and streams skipped are in \`stats.zopfli\`.`,
    }),
    jbig2: z.enum(["auto", "off", "lossless"]).default("auto").openapi({
      example: "auto",
      description:
        "Lossless JBIG2 (a shared symbol dictionary of repeated glyphs plus generic coding, decoded bit for bit as the source) for bilevel images: 1-bit gray images, stencil masks, and losslessly stored images holding exactly two colours, which become 1-bit. 1-bit images placed above the profile's 1-bit resolution (see \`profile\`) are first brought down to it (box filter, ink where a third of the footprint is). `auto` uses JBIG2 where it is smaller than the current encoding, `lossless` for every such image, `off` never (and then 1-bit images keep their resolution). Counts, bytes and CPU time are in `stats.jbig2`.",
    }),
    linearize: z.boolean().default(false).openapi({
      example: false,
      description:
        "Linearize the output (\"fast web view\": the first page and the cross-reference hints come first, so a viewer shows page 1 before the download ends), with qpdf. An encrypted input stays encrypted with the same password. Adds a few kB of hint tables; CPU time and sizes are in `stats.linearize`.",
    }),
    output: outputModeSchema,
  })
  .strict()
  .openapi("PdfCompressOptions");

export const pdfAnalyzeOptionsSchema = z
  .object({ password })
  .strict()
  .openapi("PdfAnalyzeOptions");

export type PdfCompressOptions = z.output<typeof pdfCompressOptionsSchema>;
export type PdfCompressOptionsInput = z.input<typeof pdfCompressOptionsSchema>;
export type PdfAnalyzeOptions = z.output<typeof pdfAnalyzeOptionsSchema>;
export type PdfAnalyzeOptionsInput = z.input<typeof pdfAnalyzeOptionsSchema>;
