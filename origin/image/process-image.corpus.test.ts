// processImage over all of PngSuite: every colour type, bit depth, interlacing, ancillary chunk
// and the corrupt x* files, from the real-world corpus.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageOptionsSchema, type ImageOptionsInput } from "../../contracts/image-options.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { corpusPath } from "../../test/support/corpus-dir.ts";
import { processImage } from "./process-image.ts";

const run = (input: Uint8Array, options: ImageOptionsInput = {}) => processImage(input, imageOptionsSchema.parse(options));

describe("processImage on PngSuite", () => {
  it("converts every valid file and refuses every corrupt x* file with a 4xx", async () => {
    const directory = corpusPath("img/pngsuite");
    const files = (await readdir(directory)).filter((name) => name.endsWith(".png"));
    expect(files.length).toBeGreaterThan(150);
    const refused: string[] = [];
    for (const name of files) {
      const input = await readFile(path.join(directory, name));
      try {
        const result = await run(input, { format: "png" });
        const decoded = await sharp(result.bytes).metadata();
        expect([decoded.width, decoded.height], name).toEqual([result.width, result.height]);
      } catch (error) {
        expect(error, name).toBeInstanceOf(ProblemError);
        expect((error as ProblemError).status, name).toBeGreaterThanOrEqual(400);
        expect((error as ProblemError).status, name).toBeLessThan(500);
        refused.push(name);
      }
    }
    expect(refused.filter((name) => !name.startsWith("x")), "valid files refused").toEqual([]);
    expect(files.filter((name) => name.startsWith("x") && !refused.includes(name)), "corrupt files accepted").toEqual([]);
  });
});
