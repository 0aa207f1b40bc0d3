// What the edge isolate can afford, in one module without codecs so the origin (which makes
// mezzanines to fit it) can import it too.

// Measured in edge-pipeline.test.ts: at 1 MP the PNG and resize instances (which persist in
// the isolate, 37 MB) plus the heaviest run's decoder, encoder and JS buffers (49 MB) stay
// under 100 MB; the Workers isolate limit is 128 MB and the rest is the worker's own heap.
export const EDGE_MAX_SOURCE_PIXELS = 1_000_000;
// The encoded source sits in the isolate and again in its decoder's WASM memory; the budget test
// pads its sources to this size. A mezzanine fits by construction: at 1 MP even an incompressible
// RGBA PNG is 4.0 MB. Larger originals are never read whole at the edge: it reads their header
// and streams them from R2 to the origin.
export const EDGE_MAX_SOURCE_BYTES = 4 * 1024 * 1024;
// The resize instance persists and grows with its input, output and a float buffer of output
// width x input height; the AVIF encoder needs about 45 MB of WASM memory per megapixel (and
// seconds of CPU). Larger outputs are the origin's: the edge serves thumbnails and page images.
export const EDGE_MAX_OUTPUT_PIXELS = 500_000;

// The formats the edge decodes (jSquash codecs).
export const EDGE_SOURCE_FORMATS = ["jpeg", "png", "webp"] as const;
export type EdgeSourceFormat = (typeof EDGE_SOURCE_FORMATS)[number];
