// The largest PDF either tier takes: the edge refuses a bigger source before storing it, the
// origin before opening it. Pricing's size tiers sit below it.
export const PDF_MAX_BYTES = 200 * 1024 * 1024;

// Pages per document, read from the page tree before any page is loaded. Work is linear in
// pages (pages drawing the same content are run once), so the cap is generous: it bounds the
// page list a reply carries, not a quadratic cost.
export const PDF_MAX_PAGES = 50_000;

// mupdf's duplicate-object pass compares objects pairwise: 4,000 objects took 1 s (distinct)
// to 5 s (identical) here, 8,000 took 5 to 18 s. Above this many objects the save compacts
// without merging duplicates, so a file of many small objects cannot stretch a save to minutes.
export const PDF_DEDUPE_MAX_OBJECTS = 4_000;

// What Flate streams may inflate to, checked when the document is opened, before anything
// decodes them: a 1 MB Flate bomb claims a gigabyte, and every later pass (placements, the
// Flate recompression, the save) would decode it again. One stream may inflate to 256 MiB
// (an 85-megapixel RGB image), all of them together to 512 MiB or 16 times the file's size,
// whichever is more (a 200 MB scan may hold gigabytes of pixels).
export const PDF_MAX_STREAM_DECODED_BYTES = 256 * 1024 * 1024;
export const PDF_MIN_DECODED_BUDGET_BYTES = 512 * 1024 * 1024;
export const PDF_DECODED_BYTES_PER_INPUT_BYTE = 16;

// Image rectangles analyze lists across one document, in page order; it counts every placement
// beyond them. One page can draw an image thousands of times (a tiled background) and 50,000
// pages can each draw one, so the list is bounded where the counts are not: about 600 kB of JSON.
export const PDF_ANALYZE_MAX_PLACEMENT_RECTS = 5_000;
