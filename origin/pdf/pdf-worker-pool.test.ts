import { deflateSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import { PdfWorkerPool } from "./pdf-worker-pool.ts";
import { problemOf } from "./test-support/expect-problem.ts";
import { buildPdf, photoPixels } from "./test-support/generate-pdf.ts";

// Two photo documents of different sizes, cycled: cheap enough to run many jobs.
const DOCUMENTS = await Promise.all((["photo-placed-small.pdf", "photo-full-page.pdf"] as const).map(generatedFile));
const options = pdfCompressOptionsSchema.parse({ profile: "ebook" });
const MB = 1024 * 1024;

/** A Flate photo drawn at 300 DPI. mupdf decodes it in the WASM heap; a plain JPEG is decoded by sharp outside it (sized-pixels.ts). */
function flatePhotoPdf(width: number, height: number): Uint8Array {
  const photo = { name: "Photo", stream: new Uint8Array(deflateSync(photoPixels(width, height, 3))), dict: { Type: "XObject", Subtype: "Image", Width: width, Height: height, ColorSpace: "DeviceRGB", BitsPerComponent: 8, Filter: "FlateDecode" } };
  return buildPdf([photo], [[{ image: "Photo", x: 36, y: 36, width: (width * 72) / 300, height: (height * 72) / 300 }]]);
}

// Two documents whose decodes grow the WASM heap, of different sizes.
const HEAP_DOCUMENTS = [flatePhotoPdf(1200, 800), flatePhotoPdf(2000, 1400)];

describe("PdfWorkerPool", () => {
  const pools: PdfWorkerPool[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()));
  });

  it("keeps the WASM heap and the process RSS bounded by recycling workers", async () => {
    const cycles = 6;
    const pool = new PdfWorkerPool({ maxJobsPerWorker: DOCUMENTS.length });
    pools.push(pool);
    const rssAfterCycle: number[] = [];
    for (let cycle = 0; cycle < cycles; cycle++) {
      for (const input of DOCUMENTS) {
        const result = await pool.compress(input, options);
        expect(result.bytes.byteLength).toBeLessThan(input.byteLength);
      }
      rssAfterCycle.push(process.memoryUsage().rss);
    }
    const { workersStarted, wasmHeapBytesAfterJob } = pool.stats();
    expect(workersStarted).toBe(cycles);
    // Each cycle runs on a fresh heap, so it reaches the same sizes as the first one.
    const firstCycle = wasmHeapBytesAfterJob.slice(0, DOCUMENTS.length);
    expect(wasmHeapBytesAfterJob).toEqual(Array.from({ length: cycles }, () => firstCycle).flat());
    console.info(`pool: WASM heap per job ${firstCycle.map((b) => Math.round(b / MB)).join("/")} MB, RSS after each cycle ${rssAfterCycle.map((b) => Math.round(b / MB)).join(", ")} MB`);
    // Native allocators settle over the first cycles; after that RSS must stop climbing.
    const half = cycles / 2;
    const growthInSecondHalf = Math.max(...rssAfterCycle.slice(half)) - Math.max(...rssAfterCycle.slice(0, half));
    expect(growthInSecondHalf).toBeLessThan(100 * MB);
  });

  it("without recycling the same jobs only grow the heap, and a heap ceiling recycles after each job", async () => {
    const keeping = new PdfWorkerPool({ maxJobsPerWorker: 100 });
    const ceiling = new PdfWorkerPool({ maxJobsPerWorker: 100, maxWasmHeapBytes: 1 });
    pools.push(keeping, ceiling);
    for (const input of [...HEAP_DOCUMENTS, ...HEAP_DOCUMENTS]) {
      await keeping.compress(input, options);
      await ceiling.compress(input, options);
    }
    const grown = keeping.stats().wasmHeapBytesAfterJob;
    for (let i = 1; i < grown.length; i++) expect(grown[i]).toBeGreaterThanOrEqual(grown[i - 1] ?? 0);
    expect(grown.at(-1)).toBeGreaterThan(Math.max(...ceiling.stats().wasmHeapBytesAfterJob));
    expect(keeping.stats().workersStarted).toBe(1);
    expect(ceiling.stats().workersStarted).toBe(HEAP_DOCUMENTS.length * 2);
  });

  it("with transferInput moves the input to the worker instead of copying it, and compresses it the same", async () => {
    const copying = new PdfWorkerPool();
    const moving = new PdfWorkerPool({ transferInput: true });
    pools.push(copying, moving);
    const input = DOCUMENTS[1]!.slice();
    const copied = await copying.compress(input, options);
    expect(input.byteLength).toBe(DOCUMENTS[1]!.byteLength);
    const moved = await moving.compress(input, options);
    expect(input.byteLength).toBe(0);
    expect(moved.stats.original_bytes).toBe(DOCUMENTS[1]!.byteLength);
    expect(Buffer.from(moved.bytes).equals(copied.bytes)).toBe(true);
  });

  it("carries problems across the thread as ProblemErrors", async () => {
    const pool = new PdfWorkerPool();
    pools.push(pool);
    const problem = await problemOf(pool.analyze(new TextEncoder().encode("not a pdf"), { password: null }));
    expect(problem.slug).toBe("pdf_unreadable");
    expect(problem.status).toBe(422);
    const analysis = await pool.analyze(DOCUMENTS[0] ?? new Uint8Array(), { password: null });
    expect(analysis.images).toHaveLength(1);
  });
});
