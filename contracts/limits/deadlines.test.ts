import { describe, expect, it } from "vitest";
import { imageMezzanineEndpoint } from "../origin/image-mezzanine.ts";
import { imagePlaceholderEndpoint } from "../origin/image-placeholder.ts";
import { imageProcessEndpoint } from "../origin/image-process.ts";
import { imageTransformEndpoint } from "../origin/image-transform.ts";
import { pdfAnalyzeEndpoint } from "../origin/pdf-analyze.ts";
import { pdfCompressEndpoint } from "../origin/pdf-compress.ts";
import { xlsxGenerateEndpoint } from "../origin/xlsx-generate.ts";
import { operationDeclarations, operations } from "../operations.ts";
import { isDeadlinePath, ORIGIN_CALL_GRACE_MS, ORIGIN_DEADLINES, originCallTimeoutMs, originDeadlineMs } from "./deadlines.ts";

const endpoints = [imageMezzanineEndpoint, imagePlaceholderEndpoint, imageProcessEndpoint, imageTransformEndpoint, pdfAnalyzeEndpoint, pdfCompressEndpoint, xlsxGenerateEndpoint];
const MIB = 1024 * 1024;

describe("origin deadlines", () => {
  it("declares one for every origin endpoint and none for a path that is not one", () => {
    expect(endpoints.map((endpoint) => isDeadlinePath(endpoint.path))).toEqual(endpoints.map(() => true));
    expect(Object.keys(ORIGIN_DEADLINES).sort()).toEqual(endpoints.map((endpoint) => endpoint.path).sort());
    expect(isDeadlinePath("/healthz")).toBe(false);
  });

  it("takes each endpoint's rule from the one operation that declares it", () => {
    const declared = operations.flatMap((name) => Object.keys(operationDeclarations[name].origin));
    expect(new Set(declared).size).toBe(declared.length);
    expect(ORIGIN_DEADLINES["/pdf/analyze"]).toBe(operationDeclarations["pdf.analyze"].origin["/pdf/analyze"]);
  });

  it("grows with the input up to its ceiling, and the edge waits a grace beyond it", () => {
    expect(originDeadlineMs("/pdf/compress", 0)).toBe(20_000);
    expect(originDeadlineMs("/pdf/compress", 10 * MIB)).toBe(40_000);
    expect(originDeadlineMs("/pdf/compress", 200 * MIB)).toBe(420_000);
    expect(originDeadlineMs("/pdf/analyze", 10_000 * MIB)).toBe(40_000);
    expect(originCallTimeoutMs("/pdf/analyze", 0)).toBe(20_000 + ORIGIN_CALL_GRACE_MS);
    expect(originCallTimeoutMs("/pdf/compress", null)).toBe(600_000 + ORIGIN_CALL_GRACE_MS);
  });

  it("gives an image call time for the pixels it works on, not its bytes alone, and the edge waits the ceiling it cannot count below", () => {
    // A 3840x2400 wallpaper of 3 MB: about 21 s by its bytes, about 35 s by its pixels.
    const bytes = 3 * MIB;
    expect(originDeadlineMs("/image/process", bytes, 3840 * 2400 / 1e6)).toBeGreaterThan(originDeadlineMs("/image/process", bytes) + 10_000);
    expect(originDeadlineMs("/image/process", bytes, 3840 * 2400 / 1e6)).toBeLessThan(ORIGIN_DEADLINES["/image/process"].maxMs);
    expect(originDeadlineMs("/image/process", bytes, 1_000)).toBe(ORIGIN_DEADLINES["/image/process"].maxMs);
    expect(originCallTimeoutMs("/image/process", bytes)).toBe(ORIGIN_DEADLINES["/image/process"].maxMs + ORIGIN_CALL_GRACE_MS);
  });
});
