import { describe, expect, it } from "vitest";
import { canonicalTransform } from "./canonical.ts";
import { transformSignature, verifyTransformSignature } from "./signature.ts";
import { SIGNATURE_LENGTH } from "./token-values.ts";
import { parseTransform } from "./tokens.ts";
import { referenceHmacSha256 } from "../webhooks/reference-hmac-sha256.ts";

const secret = "tsk_test_signing_secret";
const path = `/v1/image/t/key_abc/${canonicalTransform(parseTransform("f_webp,w_400"))}/file_123`;

describe("transform signatures", () => {
  it("is the first 16 bytes of HMAC-SHA256, base64url", async () => {
    const encoder = new TextEncoder();
    const mac = await referenceHmacSha256(encoder.encode(secret), encoder.encode(path));
    const reference = btoa(String.fromCharCode(...mac.subarray(0, 16))).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
    const signature = await transformSignature(secret, path);
    expect(signature).toBe(reference);
    expect(signature).toHaveLength(SIGNATURE_LENGTH);
    expect(parseTransform(`w_400,s_${signature}`).signature).toBe(signature);
  });

  it("verifies the path it signed", async () => {
    const signature = await transformSignature(secret, path);
    expect(await verifyTransformSignature(secret, path, signature)).toBe(true);
  });

  it("is the same for every spelling of the transform", async () => {
    const other = `/v1/image/t/key_abc/${canonicalTransform(parseTransform("w_400,q_76,f_webp"))}/file_123`;
    expect(await transformSignature(secret, other)).toBe(await transformSignature(secret, path));
  });

  it("covers q_auto's level: one level's signature is not another's", async () => {
    const pathOf = (segment: string) => `/v1/image/t/key_abc/${canonicalTransform(parseTransform(segment))}/file_123`;
    const signature = await transformSignature(secret, pathOf("w_400,q_auto"));
    expect(await verifyTransformSignature(secret, pathOf("q_auto:good,w_400"), signature)).toBe(true);
    for (const other of ["w_400,q_auto:eco", "w_400,q_auto:low", "w_400,q_auto:best", "w_400"]) {
      expect(await verifyTransformSignature(secret, pathOf(other), signature)).toBe(false);
    }
  });

  it("fails for a tampered path, a tampered signature or another secret", async () => {
    const signature = await transformSignature(secret, path);
    expect(await verifyTransformSignature(secret, path.replace("w_400", "w_4000"), signature)).toBe(false);
    expect(await verifyTransformSignature(secret, path.replace("file_123", "file_124"), signature)).toBe(false);
    expect(await verifyTransformSignature("another secret", path, signature)).toBe(false);
    const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
    expect(await verifyTransformSignature(secret, path, flipped)).toBe(false);
    expect(await verifyTransformSignature(secret, path, signature.slice(0, -1))).toBe(false);
    expect(await verifyTransformSignature(secret, path, `${signature}A`)).toBe(false);
    expect(await verifyTransformSignature(secret, path, "")).toBe(false);
  });
});
