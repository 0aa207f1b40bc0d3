import { describe, expect, it } from "vitest";
import { optimizedImageResult } from "../test-support/job-results.ts";
import { deliveredByJob } from "./delivered-by-job.ts";

describe("deliveredByJob", () => {
  it("reads the charge and the output file of a result that passes its operation's schema, and nothing of one that does not", () => {
    const result = optimizedImageResult(1200);
    expect(deliveredByJob("image.optimize", result)).toEqual({ charged_micros: 1200, file_ids: ["file_8kT2bQ7xLw3mZr9Xc1Vd"] });
    expect(deliveredByJob("pdf.compress", result)).toBeNull();
    expect(deliveredByJob("image.optimize", { billing: { charged_micros: 1 } })).toBeNull();
  });
});
