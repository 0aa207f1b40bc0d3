import type { Hono } from "hono";
import { imageOptionsSchema } from "../../contracts/image-options.ts";
import type { ConcurrencyLimit } from "../../contracts/concurrency/concurrency-limit.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import { IMAGE_INPUT_LIMITS } from "../image/decode-limits.ts";
import { processImage } from "../image/process-image.ts";

export const IMAGE_PROCESS_PATH = "/image/process";


/** Bytes in, the optimized image and its stats out (framed: meta first). */
export function registerImageProcess(app: Hono, limit: ConcurrencyLimit): void {
  app.post(IMAGE_PROCESS_PATH, async (c) => {
    const options = inputOptions(c, imageOptionsSchema);
    const input = await inputBytes(c, IMAGE_INPUT_LIMITS.max_input_bytes);
    const image = await limit(() => processImage(input, options));
    const { bytes, ...meta } = image;
    return framedResponse(meta, bytes);
  });
}
