import type { Hono } from "hono";
import { imagePlaceholderEndpoint } from "../../contracts/origin/image-placeholder.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import { IMAGE_INPUT_LIMITS } from "../image/decode-limits.ts";
import { computePlaceholder } from "../image/placeholder.ts";
import type { ComputeSlots } from "../worker-pool/compute-slots.ts";
import type { CallClocks } from "./call-ticket.ts";

/** Source bytes in, its placeholder out as the framed meta (no payload). */
export function registerImagePlaceholder(app: Hono, slots: ComputeSlots, clocks: CallClocks): void {
  app.post(imagePlaceholderEndpoint.path, async (c) => {
    const clock = clocks(c, imagePlaceholderEndpoint.path);
    inputOptions(c, imagePlaceholderEndpoint.options);
    const input = await inputBytes(c, IMAGE_INPUT_LIMITS.max_input_bytes);
    const placeholder = await slots.run(clock.ticket(input.byteLength), "The placeholder", () => computePlaceholder(input));
    return framedResponse(imagePlaceholderEndpoint, placeholder, new Uint8Array(0));
  });
}
