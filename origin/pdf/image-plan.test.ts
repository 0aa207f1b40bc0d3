import { describe, expect, it } from "vitest";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import { compressPdf } from "./compress-pdf.ts";
import { buildPdf, jpegImage } from "./test-support/generate-pdf.ts";
import { pageImages } from "./test-support/inspect-output.ts";

describe("the DPI ceiling", () => {
  it("is absent for custom without max_dpi: an image placed at 300 dpi is re-encoded at its own resolution", async () => {
    // 1200 x 800 px drawn at 288 x 192 pt: 300 dpi.
    const photo = await jpegImage("Photo", 1200, 800, 95);
    const input = buildPdf([photo], [[{ image: "Photo", x: 72, y: 400, width: 288, height: 192 }]]);
    const result = await compressPdf(input, pdfCompressOptionsSchema.parse({ profile: "custom", image_quality: 60 }));
    expect(pageImages(result.bytes)[0]?.[0]).toMatchObject({ width: 1200, height: 800, filter: "DCTDecode" });
    expect(result.stats.images[0]?.after).toMatchObject({ width: 1200, quality: 60 });
    expect(result.stats.images[0]?.after?.dpi).toBeCloseTo(300, 3);
    const capped = await compressPdf(input, pdfCompressOptionsSchema.parse({ profile: "custom", image_quality: 60, max_dpi: 150 }));
    expect(pageImages(capped.bytes)[0]?.[0]).toMatchObject({ width: 600, height: 400 });
  });
});
