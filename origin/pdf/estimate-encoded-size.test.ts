import { describe, expect, it } from "vitest";
import { encodeJpeg } from "./encode-pixels.ts";
import { estimateEncodedSize } from "./estimate-encoded-size.ts";
import type { RawPixels } from "./raw-pixels.ts";
import { photoPixels } from "./test-support/generate-pdf.ts";

// A white page-sized RGB image with a detailed patch in one corner, like a seal on a scan.
function pageWithPatch(width: number, height: number, patch: { x: number; y: number; side: number }): RawPixels {
  const data = new Uint8Array(width * height * 3).fill(255);
  const detail = photoPixels(patch.side, patch.side, 3, 7);
  for (let y = 0; y < patch.side; y++) data.set(detail.subarray(y * patch.side * 3, (y + 1) * patch.side * 3), ((patch.y + y) * width + patch.x) * 3);
  return { data, width, height, channels: 3 };
}

const logError = (estimate: number, actual: number) => Math.abs(Math.log(estimate / actual));

describe("estimateEncodedSize", () => {
  it("sizes a large photo's JPEG from a sample within 15% of encoding it whole", async () => {
    const photo: RawPixels = { data: photoPixels(1400, 1000, 3, 3), width: 1400, height: 1000, channels: 3 };
    const estimate = await estimateEncodedSize(photo, true, 76);
    expect(estimate.filter).toBe("DCTDecode");
    expect(logError(estimate.bytes, (await encodeJpeg(photo, 76)).bytes.byteLength)).toBeLessThan(0.15);
  });

  it("finds the detail in mostly blank images, wherever it sits", async () => {
    // A seal or a signature somewhere on a white page: a sample of a few large tiles misses it
    // or hits it whole, depending on where it is.
    const errors: number[] = [];
    for (const x of [40, 300, 560, 820]) {
      for (const y of [30, 420, 810, 1200]) {
        const page = pageWithPatch(1000, 1400, { x, y, side: 150 });
        const estimate = await estimateEncodedSize(page, true, 76);
        errors.push(logError(estimate.bytes, (await encodeJpeg(page, 76)).bytes.byteLength));
      }
    }
    const mean = errors.reduce((sum, error) => sum + error, 0) / errors.length;
    console.log(`mostly blank pages: mean |log error| ${mean.toFixed(3)}, worst ${Math.max(...errors).toFixed(3)}`);
    expect(mean).toBeLessThan(0.15);
    expect(Math.max(...errors)).toBeLessThan(0.35);
  });
});
