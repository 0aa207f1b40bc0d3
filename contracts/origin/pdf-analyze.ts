// The edge-to-origin contract for /v1/pdf/analyze: the PDF in, the analysis out as the framed
// meta (the payload is empty). The analysis is the public PdfAnalysis as it is; the edge adds
// only billing.
import { z } from "@hono/zod-openapi";
import { PDF_ANALYZE_MAX_PLACEMENT_RECTS } from "../limits/pdf.ts";
import { PDF_FIXED_PROFILES, pdfAnalyzeOptionsSchema } from "../pdf-options.ts";
import { pdfBytesByCategorySchema } from "./pdf-compress.ts";

export const PDF_ANALYZE_PATH = "/pdf/analyze";

export const PDF_COLORSPACE_FAMILIES = [
  "DeviceGray",
  "DeviceRGB",
  "DeviceCMYK",
  "CalGray",
  "CalRGB",
  "Lab",
  "ICCBased",
  "Indexed",
  "Separation",
  "DeviceN",
  "unknown",
] as const;

export interface PdfColorspace {
  family: (typeof PDF_COLORSPACE_FAMILIES)[number];
  components: number;
  base: PdfColorspace | null;
}

export const pdfColorspaceSchema: z.ZodType<PdfColorspace> = z
  .lazy(() =>
    z.object({
      family: z.enum(PDF_COLORSPACE_FAMILIES),
      components: z.number().int(),
      base: pdfColorspaceSchema.nullable().openapi({ description: "For Indexed the base space, for ICCBased its alternate or N-derived device space" }),
    }),
  )
  .openapi("PdfColorspace", {
    description: "An image's color space: its family, the components per pixel, and the space it is based on",
    example: { family: "ICCBased", components: 3, base: { family: "DeviceRGB", components: 3, base: null } },
  });

const sizePt = z.object({ width: z.number(), height: z.number() });

export const pdfImagePlacementSchema = z
  .object({
    page: z.number().int().min(1).openapi({ description: "The page it is drawn on, from 1" }),
    rect_pt: z
      .object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
      .openapi({
        description:
          "The box the drawn image covers, in points from the top-left corner of the page as shown (its crop box, after /Rotate), y downward: the space of `composition.page_sizes_pt` and of the page drawn by the `pg_` transform. A rotated or skewed drawing gives the box around it; a drawing past the page's edge is not clipped.",
        example: { x: 72, y: 200, width: 288, height: 192 },
      }),
    effective_dpi: z.number().openapi({ description: "Pixels per inch of this drawing (the lower of the two axes)" }),
  })
  .openapi("PdfImagePlacement", { description: "One drawing of an image on a page" });

export const pdfImageReportSchema = z
  .object({
    object_number: z.number().int(),
    pages: z.array(z.number().int()),
    width: z.number().int(),
    height: z.number().int(),
    bits_per_component: z.number().int(),
    colorspace: pdfColorspaceSchema,
    filters: z.array(z.string()),
    bytes: z.number().int(),
    soft_mask: z
      .object({ object_number: z.number().int(), width: z.number().int(), height: z.number().int(), bytes: z.number().int() })
      .nullable(),
    stencil_mask: z.boolean(),
    placed_size_pt: sizePt.nullable().openapi({ description: "Drawn size of its smallest placement, in points; null when not drawn" }),
    effective_dpi: z.number().nullable().openapi({ description: "Pixels per inch at its smallest placement; null when not drawn" }),
    placement_count: z.number().int().openapi({ description: "How many times it is drawn, on every page" }),
    placements: z.array(pdfImagePlacementSchema).openapi({
      description: `Each drawing with its box on its page, in page order. At most ${PDF_ANALYZE_MAX_PLACEMENT_RECTS.toLocaleString("en-US")} are listed across the document, so a document that draws more lists fewer than \`placement_count\`.`,
    }),
    estimated_jpeg_quality: z
      .number()
      .int()
      .min(1)
      .max(100)
      .nullable()
      .openapi({ description: "For a JPEG (DCTDecode) image: the quality it was saved at on the IJG scale, fitted from its quantization tables; null otherwise" }),
    estimated_jpeg_encoder: z.enum(["ijg", "mozjpeg"]).nullable().openapi({ description: "Whose default tables fitted best; null when there is no estimate" }),
  })
  .openapi("PdfImageReport");

export const pdfFontReportSchema = z
  .object({
    object_number: z.number().int(),
    name: z.string(),
    type: z.string().openapi({ example: "Type0/CIDFontType2" }),
    embedded: z.boolean(),
    subset: z.boolean(),
    bytes: z.number().int(),
  })
  .openapi("PdfFontReport");

export const pdfConformanceClaimSchema = z.object({
  standard: z.enum(["PDF/A", "PDF/X"]),
  part: z.string().openapi({ description: "PDF/A part (1..4) or the PDF/X version string, e.g. PDF/X-4" }),
  conformance: z.string().nullable(),
});

export const pdfDocumentFlagsSchema = z
  .object({
    encrypted: z.boolean(),
    encryption: z.string().nullable(),
    signed: z.boolean(),
    signature_fields: z.array(z.string()),
    conformance: z.array(pdfConformanceClaimSchema),
    output_intents: z.boolean(),
    forms: z.object({ acroform: z.boolean(), xfa: z.boolean(), fields: z.number().int() }),
    javascript: z.boolean(),
    embedded_files: z.number().int(),
    tagged: z.boolean(),
    linearized: z.boolean(),
  })
  .openapi("PdfDocumentFlags");

export const PDF_QUALITY_RISKS = ["none", "low", "medium", "high"] as const;

export const pdfProfileProjectionSchema = z
  .object({
    estimated_bytes: z.number().int(),
    savings_bytes: z.number().int(),
    savings_ratio: z.number(),
    quality_risk: z.enum(PDF_QUALITY_RISKS),
    images_rewritten: z.number().int(),
  })
  .openapi("PdfProfileProjection");

export const pdfCompositionSchema = z
  .object({
    pages: z.number().int(),
    page_sizes_pt: z.array(sizePt),
    bytes: pdfBytesByCategorySchema,
    total_bytes: z.number().int(),
    object_count: z.number().int(),
    version: z.string().openapi({ example: "1.7" }),
    producer: z.string().nullable(),
  })
  .openapi("PdfComposition");

const projection = Object.fromEntries(PDF_FIXED_PROFILES.map((profile) => [profile, pdfProfileProjectionSchema])) as Record<
  (typeof PDF_FIXED_PROFILES)[number],
  typeof pdfProfileProjectionSchema
>;

export const pdfAnalyzeStatsSchema = z
  .object({ original_bytes: z.number().int().openapi({ description: "Size of the PDF analyzed" }) })
  .openapi("PdfAnalyzeStats", { description: "Analyze writes no output, so only the input's size applies" });

export const pdfAnalyzeReplySchema = z.object({
  stats: pdfAnalyzeStatsSchema,
  composition: pdfCompositionSchema,
  flags: pdfDocumentFlagsSchema,
  images: z.array(pdfImageReportSchema),
  fonts: z.array(pdfFontReportSchema),
  projection: z.object(projection).openapi({ description: "Per profile: estimated output bytes, savings and quality_risk" }),
});

export const pdfAnalyzeEndpoint = { path: PDF_ANALYZE_PATH, options: pdfAnalyzeOptionsSchema, reply: pdfAnalyzeReplySchema } as const;

export type PdfImageReport = z.infer<typeof pdfImageReportSchema>;
export type PdfImagePlacement = z.infer<typeof pdfImagePlacementSchema>;
export type PdfFontReport = z.infer<typeof pdfFontReportSchema>;
export type PdfDocumentFlags = z.infer<typeof pdfDocumentFlagsSchema>;
export type PdfProfileProjection = z.infer<typeof pdfProfileProjectionSchema>;
export type PdfConformanceClaim = z.infer<typeof pdfConformanceClaimSchema>;
export type PdfQualityRisk = (typeof PDF_QUALITY_RISKS)[number];
export type PdfColorspaceFamily = (typeof PDF_COLORSPACE_FAMILIES)[number];
export type PdfAnalyzeReply = z.infer<typeof pdfAnalyzeReplySchema>;
