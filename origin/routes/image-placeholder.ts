import type { Hono } from "hono";
import type { ConcurrencyLimit } from "../../contracts/concurrency/concurrency-limit.ts";
import { imagePlaceholderEndpoint } from "../../contracts/origin/image-placeholder.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import { IMAGE_INPUT_LIMITS } from "../image/decode-limits.ts";
import { computePlaceholder } from "../image/placeholder.ts";

/** Source bytes in, its placeholder out as the framed meta (no payload). */
export function registerImagePlaceholder(app: Hono, limit: ConcurrencyLimit): void {
  app.post(imagePlaceholderEndpoint.path, async (c) => {
    inputOptions(c, imagePlaceholderEndpoint.options);
    const input = await inputBytes(c, IMAGE_INPUT_LIMITS.max_input_bytes);
    const placeholder = await limit(() => computePlaceholder(input));
    return framedResponse(imagePlaceholderEndpoint, placeholder, new Uint8Array(0));
  });
}
