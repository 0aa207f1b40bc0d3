// One page of a many-page source as an image (`pg_<n>`, `options.page`): a PDF page drawn by
// MuPDF in a worker thread (pdf/draw-page.ts), a TIFF page read by libvips. Pages count from 1;
// a page past the last is page_out_of_range, before anything is drawn.
import sharp from "sharp";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { pageOutOfRange } from "../../pdf/page-out-of-range.ts";
import { PdfWorkerPool } from "../../pdf/pdf-worker-pool.ts";
import type { WorkerPoolLoad } from "../../worker-pool/worker-pool.ts";
import { currentTicket, secondsLeft } from "../../worker-pool/deadline.ts";
import { poolSizes } from "../../worker-pool/pool-sizes.ts";
import type { RasterTarget } from "./raster-target.ts";

// mupdf's heap only grows: a thread that drew a 100-megapixel page is replaced before the next.
const PAGE_WORKER_MAX_WASM_HEAP_BYTES = 512 * 1024 * 1024;

let pagePool: PdfWorkerPool | undefined;

/**
 * The threads pages are drawn in, started by the first page asked for. Each drawing holds a compute
 * slot while it waits, so there are as many threads as slots and the slots' turns are the turns.
 */
function pageWorkers(): PdfWorkerPool {
  const size = poolSizes().computeSlots;
  pagePool ??= new PdfWorkerPool({ size, maxPerAccount: size, maxWasmHeapBytes: PAGE_WORKER_MAX_WASM_HEAP_BYTES, unrefWhenIdle: true });
  return pagePool;
}

/** The page threads' load: drawings running, and those terminated at their deadline. */
export function pageDrawingLoad(): WorkerPoolLoad {
  return pageWorkers().load();
}

/** The page as a lossless PNG, drawn where the call's deadline terminates it. */
export async function pdfPageToPng(bytes: Uint8Array, page: number, target: RasterTarget, maxPixels: number): Promise<Uint8Array> {
  return (await pageWorkers().drawPage(bytes, { page, target, maxPixels }, currentTicket())).bytes;
}

/** A TIFF's page as a lossless PNG; the rest of the pipeline reads it like any PNG. */
export async function tiffPageToPng(bytes: Uint8Array, page: number, maxPixels: number): Promise<Uint8Array> {
  const pages = (await sharp(bytes, { limitInputPixels: false }).metadata()).pages ?? 1;
  if (page > pages) throw pageOutOfRange(page, pages);
  const image = sharp(bytes, { page: page - 1, pages: 1, limitInputPixels: maxPixels, failOn: "error" });
  // As every decode in this process: libvips stops at the call's deadline (decode-limits.ts' openSource).
  const seconds = secondsLeft();
  return (seconds === null ? image : image.timeout({ seconds })).png({ compressionLevel: 1 }).toBuffer();
}

/** A source with one page takes only page 1. */
export function checkSinglePage(page: number): void {
  if (page > 1) throw pageOutOfRange(page, 1);
}

/** A PDF is an image only one page at a time. */
export function pageRequired(): ProblemError {
  return new ProblemError(
    "unsupported_media_type",
    "this is a PDF document; an image is made of one of its pages: give `page` (options.page on /v1/image endpoints, pg_<n> in a transform URL)",
    { extensions: { detected_type: "application/pdf", expected_kind: "image", missing: "page" } },
  );
}
