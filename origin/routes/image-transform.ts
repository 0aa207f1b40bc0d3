import { sha256Hex } from "../../contracts/crypto/sha256.ts";
import { imageTransformEndpoint, splitTransformBody } from "../../contracts/origin/image-transform.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import { OVERLAY_MAX_BYTES } from "../../contracts/limits/overlay.ts";
import { inputMaxBytes } from "../image/decode-limits.ts";
import { transformImage } from "../image/transform-image.ts";
import type { OriginRoute } from "./origin-route.ts";

/** A URL transform the edge could not compute: source bytes (after an overlay's, with l_) in, the derivative out (framed). */
export const route: OriginRoute = {
  path: imageTransformEndpoint.path,
  async handle(c, { computeSlots, clocks }) {
    const clock = clocks(c, imageTransformEndpoint.path);
    const options = inputOptions(c, imageTransformEndpoint.options);
    const body = await inputBytes(c, inputMaxBytes(options.page) + (options.overlay === undefined ? 0 : OVERLAY_MAX_BYTES));
    const { source, overlay } = splitTransformBody(body, options);
    const { bytes, ...meta } = await computeSlots.run(clock.ticket(body.byteLength), "The transform", () => transformImage(source, options, overlay));
    return framedResponse(imageTransformEndpoint, { ...meta, size: bytes.byteLength, sha256: await sha256Hex(bytes) }, bytes);
  },
};
