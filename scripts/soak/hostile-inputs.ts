// What a hostile account sends, generated here so the bench needs nothing beside the repository:
// a 20,000-page PDF whose pages share one content stream (answered), one page over the page cap
// (refused before any page loads), a Flate bomb (refused before anything inflates it), truncated
// animations (10-frame GIF and WebP cut in half), a workbook with a control character in a sheet
// name, transforms that spell one output several ways, and vector sources costly to draw: a
// 14,400-pt PDF page of 20 blended fills and a 2 kB SVG blurring an 8000x8000 canvas (refused
// by their cost estimate), and a smaller drawing of each that passes it and still takes seconds
// (drawn in a PDF thread or an SVG process, killed at the deadline). Each request names the
// origin path whose deadline bounds it.
import { PDF_MAX_PAGES, PDF_MAX_STREAM_DECODED_BYTES } from "../../contracts/limits/pdf.ts";
import type { DeadlinePath } from "../../contracts/limits/deadlines.ts";
import { blurredSvg } from "../../origin/image/foreign-source/test-support/blurred-svg.ts";
import { blendedFillsPdf, flateBombPdf, sharedContentPdf } from "../../origin/pdf/test-support/generate-pdf.ts";
import { animatedImage } from "../../test/fixtures/animated-images.ts";

export interface HostileRequest {
  kind: string;
  /** The edge path and JSON body, or a transform URL path (GET) when `json` is absent. */
  path: string;
  json?: unknown;
  /** The origin call it makes, whose deadline (for `inputBytes`) bounds the answer. */
  originPath: DeadlinePath;
  inputBytes: number;
  /** Whether the service should refuse it (4xx) rather than answer it. */
  refused: boolean;
  /** For a transform URL: the Accept header sent (f_auto's format class comes from it). */
  accept?: string;
}

export interface HostileInputs {
  requests: HostileRequest[];
  /** A truncated animated GIF to upload once, so URL transforms of it can be refused too. */
  truncatedGif: Uint8Array;
}

/**
 * URL transforms whose spellings differ while their bytes cannot: `ph_lqip` with `f_auto` under
 * each Accept class (f_ folds away for a placeholder), and `anim_false` on a still image. Each
 * distinct output may be charged once, however many spellings ask for it.
 */
export function identicalOutputTransforms(keyId: string, stillFile: string, stillBytes: number): HostileRequest[] {
  const transform = (kind: string, spec: string, accept?: string): HostileRequest => ({
    kind,
    path: `/v1/image/t/${keyId}/${spec}/${stillFile}`,
    originPath: "/image/transform",
    inputBytes: stillBytes,
    refused: false,
    ...(accept ? { accept } : {}),
  });
  return [
    transform("ph_lqip,f_auto accepting AVIF", "ph_lqip,f_auto", "image/avif,image/webp,*/*"),
    transform("w_64 of a still image", "w_64,f_webp"),
    transform("ph_lqip,f_auto accepting WebP", "ph_lqip,f_auto", "image/webp,*/*"),
    transform("w_64,anim_false of a still image", "w_64,f_webp,anim_false"),
    transform("ph_lqip,f_auto accepting anything", "ph_lqip,f_auto", "*/*"),
  ];
}

export const SHARED_PAGES = 20_000;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** Half of a 10-frame animation: the header promises every frame, the bytes stop in the middle. */
async function truncatedAnimation(format: "gif" | "webp"): Promise<Uint8Array> {
  const whole = await animatedImage(format, { width: 64, height: 48, delay: Array.from({ length: 10 }, () => 100) });
  return whole.slice(0, Math.floor(whole.length / 2));
}

export async function makeHostileInputs(): Promise<HostileInputs> {
  const manyPages = await sharedContentPdf(SHARED_PAGES);
  const overCap = await sharedContentPdf(PDF_MAX_PAGES + 1);
  const bomb = flateBombPdf(PDF_MAX_STREAM_DECODED_BYTES + 32 * 1024 * 1024);
  const gif = await truncatedAnimation("gif");
  const webp = await truncatedAnimation("webp");
  const pdf = (kind: string, path: "/v1/pdf/analyze" | "/v1/pdf/compress", bytes: Uint8Array, refused: boolean): HostileRequest => ({
    kind,
    path,
    json: { source: { base64: base64(bytes) }, ...(path === "/v1/pdf/compress" ? { options: { profile: "screen" } } : {}) },
    originPath: path === "/v1/pdf/analyze" ? "/pdf/analyze" : "/pdf/compress",
    inputBytes: bytes.length,
    refused,
  });
  const image = (kind: string, bytes: Uint8Array, options: Record<string, unknown> = { width: 32 }, refused = true): HostileRequest => ({
    kind,
    path: "/v1/image/optimize",
    json: { source: { base64: base64(bytes) }, options },
    originPath: "/image/process",
    inputBytes: bytes.length,
    refused,
  });
  const blendedPage = blendedFillsPdf(20);
  const workbook = { filename: "x.xlsx", sheets: [{ name: "x\u0000y", columns: [{ key: "n", header: "N", type: "number" }], rows: [[1]] }] };
  return {
    // PDF and image requests alternate: the PDF ones queue for the account's PDF threads, and a
    // loop that takes the next request meanwhile should find something else to send.
    requests: [
      pdf(`analyze ${SHARED_PAGES} shared pages`, "/v1/pdf/analyze", manyPages, false),
      image("optimize a truncated animated GIF", gif),
      pdf(`analyze ${PDF_MAX_PAGES + 1} pages (over the cap)`, "/v1/pdf/analyze", overCap, true),
      image("optimize a truncated animated WebP", webp),
      pdf("analyze a Flate bomb", "/v1/pdf/analyze", bomb, true),
      {
        kind: "xlsx with a control character in a sheet name",
        path: "/v1/xlsx/generate",
        json: workbook,
        originPath: "/xlsx/generate",
        inputBytes: JSON.stringify(workbook).length,
        refused: true,
      },
      pdf("compress a Flate bomb", "/v1/pdf/compress", bomb, true),
      pdf(`compress ${SHARED_PAGES} shared pages`, "/v1/pdf/compress", manyPages, false),
      image("page of 20 blended fills over 14,400 pt, at 150 dpi", blendedPage, { page: 1 }),
      image("SVG blurring an 8000x8000 canvas six times", blurredSvg(6, 8_000), {}),
      // Under the cost budgets, seconds of drawing each: answered, or stopped at the deadline.
      image("page of 20 blended fills, 1800 px wide", blendedPage, { page: 1, width: 1_800 }, false),
      image("SVG blurring a 2000x2000 canvas twice", blurredSvg(2, 2_000), {}, false),
    ],
    truncatedGif: gif,
  };
}
