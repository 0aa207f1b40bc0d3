import type { Hono } from "hono";
import { sha256Hex } from "../../contracts/crypto/sha256.ts";
import { imageTransformEndpoint } from "../../contracts/origin/image-transform.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import { IMAGE_INPUT_LIMITS } from "../image/decode-limits.ts";
import { transformImage } from "../image/transform-image.ts";
import type { ComputeSlots } from "../worker-pool/compute-slots.ts";
import type { CallClocks } from "./call-ticket.ts";

/** A URL transform the edge could not compute: source bytes in, the derivative out (framed). */
export function registerImageTransform(app: Hono, slots: ComputeSlots, clocks: CallClocks): void {
  app.post(imageTransformEndpoint.path, async (c) => {
    const clock = clocks(c, imageTransformEndpoint.path);
    const options = inputOptions(c, imageTransformEndpoint.options);
    const input = await inputBytes(c, IMAGE_INPUT_LIMITS.max_input_bytes);
    const { bytes, ...meta } = await slots.run(clock.ticket(input.byteLength), "The transform", () => transformImage(input, options));
    return framedResponse(imageTransformEndpoint, { ...meta, size: bytes.byteLength, sha256: await sha256Hex(bytes) }, bytes);
  });
}
