import type { Hono } from "hono";
import type { ConcurrencyLimit } from "../../contracts/concurrency/concurrency-limit.ts";
import { imageMezzanineEndpoint } from "../../contracts/origin/image-mezzanine.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import { IMAGE_INPUT_LIMITS } from "../image/decode-limits.ts";
import { deriveMezzanine } from "../image/derive-mezzanine.ts";

/** An original the edge cannot decode in, its mezzanine out (framed), for the edge to keep in R2. */
export function registerImageMezzanine(app: Hono, limit: ConcurrencyLimit): void {
  app.post(imageMezzanineEndpoint.path, async (c) => {
    inputOptions(c, imageMezzanineEndpoint.options);
    const input = await inputBytes(c, IMAGE_INPUT_LIMITS.max_input_bytes);
    const { bytes, ...meta } = await limit(() => deriveMezzanine(input));
    return framedResponse(imageMezzanineEndpoint, meta, bytes);
  });
}
