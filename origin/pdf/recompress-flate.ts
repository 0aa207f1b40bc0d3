// Recompresses the Flate streams of an open document (content streams, fonts,
// lossless images), keeping a stream only when it comes out smaller. Producers
// often deflate at a fast level, so every output run gets zlib's best level just
// before it is saved (about 1% of the corpus's output bytes, at a few ms per MB);
// `zopfli: true` runs again over the final output with Zopfli, within a time budget. The inflated bytes are compressed again
// as they are, so PNG predictors and every /DecodeParms stay valid.
import { zlibAsync } from "@gfx/zopfli";
import { PDF_ZOPFLI_BUDGET_MS } from "../../contracts/pdf-options.ts";
import type * as mupdf from "mupdf";
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { constants, deflate, inflateSync } from "node:zlib";
import { concurrencyLimit } from "../../contracts/concurrency/concurrency-limit.ts";
import { filtersOf, forEachObject, rawStreamBytes, rawStreamLength } from "./pdf-objects.ts";
import type { PdfZopfli } from "../../contracts/origin/pdf-compress.ts";

export type FlateEngine = "zlib" | "zopfli";

export type RecompressStats = Omit<PdfZopfli, "output_bytes_before">;

// Zopfli runs at roughly 5 s per inflated MB even at one iteration, and far slower
// on very repetitive data (30 KB of repeated drawing operators took 3 s): small
// streams get more iterations, streams above the cap are left alone, streams go
// smallest first and stop at a time budget, and identical streams are compressed once.
const MAX_INFLATED_BYTES = 8 * 1024 * 1024;
// Inflating is capped too, so a hostile stream cannot expand without bound.
const INFLATE_LIMIT = MAX_INFLATED_BYTES + 1;

function iterationsFor(inflatedBytes: number): number {
  if (inflatedBytes < 16 * 1024) return 15;
  if (inflatedBytes < 256 * 1024) return 5;
  return 1;
}

function isPlainFlate(ref: mupdf.PDFObject): boolean {
  const filters = filtersOf(ref);
  return filters.length === 1 && filters[0] === "FlateDecode";
}

function inflateOrNull(raw: Uint8Array): Uint8Array | null {
  try {
    return inflateSync(raw, { maxOutputLength: INFLATE_LIMIT });
  } catch {
    return null;
  }
}

const deflateAsync = promisify(deflate);

async function compress(inflated: Uint8Array, engine: FlateEngine): Promise<Uint8Array> {
  if (engine === "zopfli") return zlibAsync(inflated, { numiterations: iterationsFor(inflated.byteLength) });
  return deflateAsync(inflated, { level: constants.Z_BEST_COMPRESSION, memLevel: 9 });
}

// zlib deflates on libuv's threads, so two streams at once keep a second core busy while this
// thread reads and writes the others (one after another on this thread, the step took about
// 1.9 s of the corpus's 30 s compress). Zopfli goes one stream at a time, smallest first, so
// its time budget stops it where it did.
const STREAMS_IN_FLIGHT: Record<FlateEngine, number> = { zlib: 2, zopfli: 1 };

/**
 * `compressed`: streams already compressed by inflated content, which the runs of one request
 * share so an unchanged content stream is compressed once however many outputs are saved.
 * `savedByObject`, when given, gets the bytes each recompressed stream saved.
 */
export async function recompressFlateStreams(
  doc: mupdf.PDFDocument,
  engine: FlateEngine,
  compressed: Map<string, Uint8Array> = new Map(),
  savedByObject?: Map<number, number>,
): Promise<RecompressStats> {
  const stats: RecompressStats = { streams_examined: 0, streams_recompressed: 0, streams_skipped: 0, bytes_saved: 0, cpu_ms: 0 };
  const candidates: Array<{ objectNumber: number; length: number }> = [];
  forEachObject(doc, (objectNumber, ref) => {
    if (ref.isStream() && isPlainFlate(ref)) candidates.push({ objectNumber, length: rawStreamLength(ref) });
  });
  candidates.sort((a, b) => a.length - b.length);
  const inFlight = concurrencyLimit(STREAMS_IN_FLIGHT[engine]);
  const recompressOne = async (objectNumber: number): Promise<void> => {
    // Streams past Zopfli's budget keep what the output run gave them: zlib's best level.
    if (engine === "zopfli" && stats.cpu_ms > PDF_ZOPFLI_BUDGET_MS) {
      stats.streams_skipped++;
      return;
    }
    const raw = rawStreamBytes(doc, objectNumber);
    const inflated = inflateOrNull(raw);
    if (inflated === null || inflated.byteLength > MAX_INFLATED_BYTES) return;
    stats.streams_examined++;
    const key = `${engine}:${createHash("sha256").update(inflated).digest("hex")}`;
    let recompressed = compressed.get(key);
    if (recompressed === undefined) {
      const started = performance.now();
      recompressed = await compress(inflated, engine);
      stats.cpu_ms += performance.now() - started;
      compressed.set(key, recompressed);
    }
    if (recompressed.byteLength >= raw.byteLength) return;
    const ref = doc.newIndirect(objectNumber);
    try {
      ref.writeRawStream(recompressed);
    } finally {
      ref.destroy();
    }
    stats.streams_recompressed++;
    stats.bytes_saved += raw.byteLength - recompressed.byteLength;
    savedByObject?.set(objectNumber, raw.byteLength - recompressed.byteLength);
  };
  await Promise.all(candidates.map(({ objectNumber }) => inFlight(() => recompressOne(objectNumber))));
  stats.cpu_ms = Math.round(stats.cpu_ms);
  return stats;
}
