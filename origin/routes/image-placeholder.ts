import { imagePlaceholderEndpoint } from "../../contracts/origin/image-placeholder.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import { IMAGE_INPUT_LIMITS } from "../image/decode-limits.ts";
import { computePlaceholder } from "../image/placeholder.ts";
import type { OriginRoute } from "./origin-route.ts";

/** Source bytes in, its placeholder out as the framed meta (no payload). */
export const route: OriginRoute = {
  path: imagePlaceholderEndpoint.path,
  async handle(c, { computeSlots, clocks }) {
    const clock = clocks(c, imagePlaceholderEndpoint.path);
    inputOptions(c, imagePlaceholderEndpoint.options);
    const input = await inputBytes(c, IMAGE_INPUT_LIMITS.max_input_bytes);
    const placeholder = await computeSlots.run(clock.ticket(input.byteLength), "The placeholder", () => computePlaceholder(input));
    return framedResponse(imagePlaceholderEndpoint, placeholder, new Uint8Array(0));
  },
};
