import { imageMezzanineEndpoint } from "../../contracts/origin/image-mezzanine.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import { IMAGE_INPUT_LIMITS } from "../image/decode-limits.ts";
import { deriveMezzanine } from "../image/derive-mezzanine.ts";
import type { OriginRoute } from "./origin-route.ts";

/** An original the edge cannot decode in, its mezzanine out (framed), for the edge to keep in R2. */
export const route: OriginRoute = {
  path: imageMezzanineEndpoint.path,
  async handle(c, { computeSlots, clocks }) {
    const clock = clocks(c, imageMezzanineEndpoint.path);
    inputOptions(c, imageMezzanineEndpoint.options);
    const input = await inputBytes(c, IMAGE_INPUT_LIMITS.max_input_bytes);
    const { bytes, ...meta } = await computeSlots.run(clock.ticket(input.byteLength), "The mezzanine", () => deriveMezzanine(input));
    return framedResponse(imageMezzanineEndpoint, meta, bytes);
  },
};
