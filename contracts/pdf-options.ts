// Options of the PDF engine (analyze and compress), shared by the edge (validation,
// OpenAPI) and the origin (the engine reads the parsed output type). The profile
// table lives here once: the origin resolves profiles from it and the schema
// description is generated from it, so the documentation cannot drift.
import { z } from "@hono/zod-openapi";
import { outputModeSchema } from "./envelope.ts";
import { QUALITY_LEVEL_TARGETS, QUALITY_LEVELS } from "./perceptual-quality.ts";

export const PDF_FIXED_PROFILES = ["screen", "email", "ebook", "print", "prepress"] as const;
export type PdfFixedProfile = (typeof PDF_FIXED_PROFILES)[number];

export const PDF_INTENTS = ["web", "email", "reading", "print", "archive"] as const;
export type PdfIntent = (typeof PDF_INTENTS)[number];

export const PDF_DPI_LIMIT = 2400;

export interface PdfProfileParameters {
  /** Resolution each image is brought down to, at its largest placement on a page. */
  targetDpi: number;
  /**
   * The perceptual floor: the SSIMULACRA 2 score (100 identical, ~90 visually lossless) every
   * re-encoded continuous-tone image reaches at the resolution it is given, through the lowest
   * JPEG quality that does. An explicit `image_quality` replaces it.
   */
  perceptualFloor: number;
  /** Downsample only when the effective DPI exceeds targetDpi by more than this factor. */
  downsampleThreshold: number;
  /** The lowest resolution a size target (`max_size_mb`, `max_base64_bytes`) may bring images down to. */
  floorDpi: number;
  /** Resolution 1-bit images (scans, stencil masks) are brought down to: text needs more than continuous tone. */
  bilevelDpi: number;
}

export const PDF_PROFILE_PARAMETERS: Record<PdfFixedProfile, PdfProfileParameters> = {
  screen: { targetDpi: 72, perceptualFloor: QUALITY_LEVEL_TARGETS.low, downsampleThreshold: 1.25, floorDpi: 36, bilevelDpi: 300 },
  email: { targetDpi: 96, perceptualFloor: QUALITY_LEVEL_TARGETS.eco, downsampleThreshold: 1.25, floorDpi: 48, bilevelDpi: 300 },
  ebook: { targetDpi: 150, perceptualFloor: QUALITY_LEVEL_TARGETS.good, downsampleThreshold: 1.25, floorDpi: 72, bilevelDpi: 300 },
  print: { targetDpi: 300, perceptualFloor: QUALITY_LEVEL_TARGETS.best, downsampleThreshold: 1.25, floorDpi: 150, bilevelDpi: 1200 },
  prepress: { targetDpi: 300, perceptualFloor: 90, downsampleThreshold: 1.5, floorDpi: 200, bilevelDpi: 1200 },
};

/** What `profile: "auto"` becomes for each `intent`; without an intent, auto is ebook. */
export const PDF_INTENT_PROFILE: Record<PdfIntent, PdfFixedProfile> = {
  web: "screen",
  email: "email",
  reading: "ebook",
  print: "print",
  archive: "prepress",
};

/** `custom` uses `max_dpi` as its target, for 1-bit images too; without `max_dpi` it resamples nothing. */
export const PDF_CUSTOM_DOWNSAMPLE_THRESHOLD = 1.25;
/** `custom`'s perceptual floor when `image_quality` is not given. */
export const PDF_CUSTOM_PERCEPTUAL_FLOOR = QUALITY_LEVEL_TARGETS.good;
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

/** A floor as the documentation names it: its score, and the quality level it is when it is one. */
export function describePerceptualFloor(score: number): string {
  const level = QUALITY_LEVELS.find((name) => QUALITY_LEVEL_TARGETS[name] === score);
  return `perceptual floor ${score}${level === undefined ? "" : ` (\`${level}\`)`}`;
}

function describeProfiles(): string {
  const lines = PDF_FIXED_PROFILES.map((name) => {
    const p = PDF_PROFILE_PARAMETERS[name];
    return `\`${name}\`: ${p.targetDpi} dpi, ${describePerceptualFloor(p.perceptualFloor)}, downsample above ${p.targetDpi * p.downsampleThreshold} dpi (x${p.downsampleThreshold}), size-target floor ${p.floorDpi} dpi, 1-bit images ${p.bilevelDpi} dpi (with \`jbig2\` on)`;
  });
  const intents = PDF_INTENTS.map((i) => `${i}→${PDF_INTENT_PROFILE[i]}`).join(", ");
  return [
    "Compression profile. Each image is resampled to the profile's DPI at its largest placement on a page (never upsampled), then re-encoded. Continuous-tone images are re-encoded as JPEG at the lowest quality whose output still scores at least the profile's perceptual floor in SSIMULACRA 2 (100 identical, about 90 visually lossless) against the resampled original, estimated from a sample of its tiles (scored whole where a sample misleads: answers at q40 or lower and shaded graphics) and judged as drawn: an image placed below the profile's DPI is scored enlarged to it. An easy image gets a low quality, a textured one a high one; `image_quality` replaces the floor with one fixed quality",
    ...lines,
    `\`custom\`: ${describePerceptualFloor(PDF_CUSTOM_PERCEPTUAL_FLOOR)} at \`max_dpi\` (downsample above x${PDF_CUSTOM_DOWNSAMPLE_THRESHOLD}, 1-bit images too); without \`max_dpi\` no image is resampled, each keeps the resolution its placement gives it and is only re-encoded; size-target floor ${PDF_CUSTOM_FLOOR_DPI} dpi (or \`max_dpi\` when lower)`,
    `\`auto\` (default): picks a profile from \`intent\` (${intents}); ebook without an intent.`,
  ].join("; ");
}

export const PDF_PROFILE_DESCRIPTION = describeProfiles();

const password = z.string().max(1024).nullable().default(null).openapi({
  example: null,
  description: "Password of an encrypted PDF (user or owner). Required when the file needs one: 422 `pdf_password_required`, or `pdf_password_invalid` when wrong.",
});

/** Every profile a compress takes: the fixed ones between `auto` (chosen by intent and content) and `custom` (the caller's own parameters). */
export const PDF_PROFILES = ["auto", ...PDF_FIXED_PROFILES, "custom"] as const;

export const pdfCompressOptionsSchema = z
  .object({
    profile: z.enum(PDF_PROFILES).default("auto").openapi({
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
    image_quality: z.number().int().min(1).max(100).nullable().default(null).openapi({
      example: null,
      description:
        "A fixed JPEG quality (1 to 100, MozJPEG, baseline) for every re-encoded continuous-tone image, whatever the profile. Default null = the profile's perceptual floor (see `profile`): each image gets the lowest quality that still meets it.",
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
        "Size target in MB (1 MB = 1,048,576 bytes). The output at the profile's perceptual floor (or `image_quality`) is tried first; when it does not fit, a quality ceiling is lowered from the highest quality that output used towards `min_quality` (never below it), each image taking the lower of its floor's quality and the ceiling, then image resolution towards the profile's size-target floor, until the file fits; the highest ceiling that fits wins. `stats.target_met` says whether it did; when it cannot, the smallest result at `min_quality` and the floor resolution comes back with `target_met: false`.",
    }),
    max_base64_bytes: z.number().int().positive().nullable().default(null).openapi({
      example: null,
      description: "Size target as base64 characters (4 * ceil(bytes / 3)), for outputs embedded in JSON or email; searched like `max_size_mb`, and the smaller of the two applies.",
    }),
    min_quality: z.number().int().min(1).max(100).default(PDF_DEFAULT_MIN_QUALITY).openapi({
      example: PDF_DEFAULT_MIN_QUALITY,
      description:
        "Floor of the size target's quality search (`max_size_mb`, `max_base64_bytes`): the quality ceiling the search lowers never goes below it, so no image is pushed under it (an image whose perceptual floor is met at a lower quality keeps that lower quality); an explicit `image_quality` below it is raised to it under a size target; when the target cannot be met at it, resolution is lowered, then the smallest result at it comes back with `target_met: false`. Without a size target it is not used.",
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
        "Lossless JBIG2 (a shared symbol dictionary of repeated glyphs plus generic coding, decoded bit for bit as the source) for bilevel images: 1-bit gray images, stencil masks, and losslessly stored images holding exactly two colours, which become 1-bit. 1-bit images placed above the profile's 1-bit resolution (see `profile`) are first brought down to it (box filter, ink where a third of the footprint is). `auto` uses JBIG2 where it is smaller than the current encoding, `lossless` for every such image, `off` never (and then 1-bit images keep their resolution). Counts, bytes and CPU time are in `stats.jbig2`.",
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
