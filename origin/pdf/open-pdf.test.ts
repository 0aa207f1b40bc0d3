import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { readOrUnreadable, readOrUnreadableAsync } from "./open-pdf.ts";

describe("readOrUnreadable", () => {
  it("reports mupdf failing on the file's content as pdf_unreadable", () => {
    const read = () =>
      readOrUnreadable("reading its pages", () => {
        throw new Error("cannot find object in xref (12 0 R)");
      });
    expect(read).toThrow(ProblemError);
    expect(read).toThrow(/The PDF is damaged: reading its pages failed/);
  });

  it("passes a problem through as it is", async () => {
    const problem = new ProblemError("pdf_password_required", "The PDF is encrypted.");
    await expect(readOrUnreadableAsync("saving it", () => Promise.reject(problem))).rejects.toBe(problem);
  });

  it("throws a bug of ours as it is, so it is a 500 and not passed off as a damaged file", async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'pages')");
    const read = () =>
      readOrUnreadable("reading its structure", () => {
        throw bug;
      });
    expect(read).toThrow(bug);
    await expect(readOrUnreadableAsync("saving it", () => Promise.reject(new RangeError("Invalid array length")))).rejects.toThrow(RangeError);
  });
});
