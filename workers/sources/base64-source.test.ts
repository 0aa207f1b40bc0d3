import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { decodeBase64Source } from "./base64-source.ts";

// The platform's btoa is the independent reference codec.
const reference = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const referenceUrl = (bytes: Uint8Array) => reference(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let at = 0; at < length; at += 65536) crypto.getRandomValues(bytes.subarray(at, at + 65536));
  return bytes;
}

function problemOf(run: () => unknown): ProblemError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe("decodeBase64Source", () => {
  const bytes = randomBytes(3000);
  const b64 = reference(bytes);

  it("accepts plain, URL-safe, unpadded and data: URI forms", () => {
    expect(decodeBase64Source(b64, 3000)).toEqual(bytes);
    expect(decodeBase64Source(referenceUrl(bytes), 3000)).toEqual(bytes);
    expect(decodeBase64Source(`data:image/png;base64,${b64}`, 3000)).toEqual(bytes);
    expect(decodeBase64Source(`DATA:application/pdf;name=a.pdf;BASE64,${b64}`, 3000)).toEqual(bytes);
    expect(decodeBase64Source(`data:;base64,${b64.slice(0, 8)}`, 3000)).toEqual(bytes.subarray(0, 6));
  });

  it("refuses bad characters with a 400 pointing at source.base64", () => {
    const problem = problemOf(() => decodeBase64Source(`${b64.slice(0, 100)}!${b64.slice(101)}`, 3000));
    expect(problem.slug).toBe("validation_failed");
    expect(problem.status).toBe(400);
    expect(problem.errors?.map(({ pointer }) => pointer)).toEqual(["/source/base64"]);
    expect(problem.errors?.[0]?.detail).toMatch(/"!" is not in the base64 alphabet \(at character 100\)/);
    const inUri = problemOf(() => decodeBase64Source(`data:image/png;base64,AAAA#`, 3000));
    expect(inUri.message).toMatch(/at character 26/);
  });

  it("refuses data: URIs that are not base64, or malformed", () => {
    expect(problemOf(() => decodeBase64Source("data:text/plain,hello", 3000)).message).toMatch(/must be base64-encoded/);
    expect(problemOf(() => decodeBase64Source("data:image/png;base64", 3000)).message).toMatch(/no comma/);
  });

  it("refuses empty input", () => {
    expect(problemOf(() => decodeBase64Source("", 3000)).message).toMatch(/empty/);
    expect(problemOf(() => decodeBase64Source("data:image/png;base64,", 3000)).message).toMatch(/empty/);
  });

  it("refuses one byte over the cap with 413, before decoding", () => {
    const problem = problemOf(() => decodeBase64Source(b64, 2999));
    expect(problem.slug).toBe("source_too_large");
    expect(problem.status).toBe(413);
    expect(problem.message).toMatch(/decodes to 3000 bytes; the limit for base64 sources is 2999 bytes/);
    expect(problem.extensions.max_bytes).toBe(2999);
  });

  it("refuses a huge string from its length alone, before validating it", () => {
    // Not even valid base64: the length check comes first and answers in constant time.
    const huge = "!".repeat(10_000_000);
    const problem = problemOf(() => decodeBase64Source(huge, 1000));
    expect(problem.slug).toBe("source_too_large");
    expect(problem.message).toMatch(/10000000 characters/);
  });
});
