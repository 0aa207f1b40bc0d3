// What drawing one vector source may cost, estimated before a pixel is drawn. A vector's cost is
// not its bytes nor its pixels: 620 bytes of PDF can blend twenty fills over a 100-megapixel page
// (two minutes of MuPDF), and 2 kB of SVG can blur an 8000x8000 canvas (librsvg draws the
// document again for each strip of the raster, so a filter costs pixels times height). Above the
// budget the call is refused `drawing_too_complex` at once; below it, the drawing still runs
// where its deadline kills it (a PDF worker thread, an SVG child process).

// A PDF page: the pixels each painting operator covers at the asked scale, summed. A transparency
// group or soft mask (blend modes, constant alpha on a group, SMask) costs this many times its
// area: drawn here, a blended full-page fill took 40 times as long as a plain one (20 of each on a
// 2880x2880 raster: 15 s against 0.37 s). Real pages cost about 2 ns a unit here (pages of the
// corpus drawn at 40 megapixels: 4.7e9 in 9.1 s, 3.7e9 in 7.8 s), so the budget is about 12 s of
// drawing, under the shortest deadline of a call that draws a page (a transform's 15 s). At 150
// dpi no page of the corpus costs a fifth of it.
export const PDF_PAGE_GROUP_COST_FACTOR = 40;
export const PDF_PAGE_DRAWING_BUDGET = 6_000_000_000;

// An SVG: each element drawn through a filter (and each <use> of a document with filters) costs
// raster pixels times raster height. Measured here: one full-canvas blur at 2000x2000 took 2.2 s
// (8e9), at 4000x4000 47 s (6.4e10), whatever its radius (librsvg blurs with box passes). The
// budget is about 5 to 15 s of drawing.
export const SVG_FILTER_DRAWING_BUDGET = 20_000_000_000;
