import { describe, expect, it } from "vitest";
import { attachmentDisposition } from "./content-disposition.ts";

function starName(header: string): string {
  return /filename\*=UTF-8''(\S+)$/.exec(header)![1]!;
}

describe("attachmentDisposition", () => {
  it("keeps a UTF-8 name exactly in filename* and an ASCII stand-in in filename", () => {
    const header = attachmentDisposition("Résumé 2026 (final).pdf");
    expect(header.startsWith('attachment; filename="R_sum_ 2026 (final).pdf"; ')).toBe(true);
    expect(decodeURIComponent(starName(header))).toBe("Résumé 2026 (final).pdf");
    expect(starName(header)).not.toMatch(/[()'"]/);
  });

  it("cannot be broken out of by quotes, backslashes or line breaks", () => {
    const header = attachmentDisposition('a"b\\c\r\nSet-Cookie: x=1.png');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toContain('filename="a_b_c__Set-Cookie: x=1.png"');
    expect(decodeURIComponent(starName(header))).toBe('a"b\\c\r\nSet-Cookie: x=1.png');
  });
});
