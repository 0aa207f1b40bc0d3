import type { Hono } from "hono";
import { sha256Hex } from "../../contracts/crypto/sha256.ts";
import { imageTransformEndpoint } from "../../contracts/origin/image-transform.ts";
import type { ConcurrencyLimit } from "../../contracts/concurrency/concurrency-limit.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import { IMAGE_INPUT_LIMITS } from "../image/decode-limits.ts";
import { transformImage } from "../image/transform-image.ts";

/** A URL transform the edge could not compute: source bytes in, the derivative out (framed). */
export function registerImageTransform(app: Hono, limit: ConcurrencyLimit): void {
  app.post(imageTransformEndpoint.path, async (c) => {
    const options = inputOptions(c, imageTransformEndpoint.options);
    const input = await inputBytes(c, IMAGE_INPUT_LIMITS.max_input_bytes);
    const { bytes, ...meta } = await limit(() => transformImage(input, options));
    return framedResponse(imageTransformEndpoint, { ...meta, size: bytes.byteLength, sha256: await sha256Hex(bytes) }, bytes);
  });
}
