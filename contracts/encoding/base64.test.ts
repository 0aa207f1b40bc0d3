import { describe, expect, it } from "vitest";
import { Base64Error, decodeBase64, decodeBase64Portable, encodeBase64, measureBase64 } from "./base64.ts";

// The platform's btoa is the independent reference codec.
const reference = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const referenceUrl = (bytes: Uint8Array) => reference(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let at = 0; at < length; at += 65536) crypto.getRandomValues(bytes.subarray(at, at + 65536));
  return bytes;
}

describe("base64 codec", () => {
  it("round-trips every length and agrees with btoa in both alphabets", () => {
    for (let length = 0; length < 70; length++) {
      const bytes = randomBytes(length);
      const standard = encodeBase64(bytes);
      const url = encodeBase64(bytes, "url");
      expect(standard).toBe(reference(bytes));
      expect(url).toBe(referenceUrl(bytes));
      for (const decode of [decodeBase64, decodeBase64Portable]) {
        expect(decode(standard)).toEqual(bytes);
        expect(decode(url)).toEqual(bytes);
        expect(decode(standard.replace(/=+$/, ""))).toEqual(bytes);
      }
      expect(measureBase64(standard)).toBe(length);
    }
  });

  it("skips line breaks and spaces, as wrapped `base64` output has them", () => {
    const bytes = randomBytes(200);
    const wrapped = `  ${reference(bytes).replace(/.{76}/g, "$&\r\n")}\n\t\f`;
    expect(decodeBase64(wrapped)).toEqual(bytes);
    expect(decodeBase64Portable(wrapped)).toEqual(bytes);
    expect(measureBase64(wrapped)).toBe(bytes.length);
  });

  it.each([
    ["AB%D", 2, /"%" is not in the base64 alphabet/],
    ["AAAA\u00e9AAA", 4, /"é"/],
    ["AAA=A", 4, /after padding/],
    ["AA===", 4, /more than two padding/],
    ["AAA==", 5, /padding does not match/],
    ["AAAAA", 5, /truncated/],
    ["ab+_", 3, /mixes the standard/],
    ["AAAA\u0000", 4, /not in the base64 alphabet/],
    ["AA=", 3, /padding does not match/],
    ["QQ==QQ==", 4, /after padding/],
  ])("refuses %j at position %i", (text, position, message) => {
    let error: unknown;
    try {
      decodeBase64(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Base64Error);
    expect((error as Base64Error).position).toBe(position);
    expect((error as Base64Error).message).toMatch(message);
  });
});
