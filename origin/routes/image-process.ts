import { imageProcessEndpoint } from "../../contracts/origin/image-process.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import { inputMaxBytes } from "../image/decode-limits.ts";
import { processImage } from "../image/process-image.ts";
import { workMegapixels } from "../image/work-pixels.ts";
import type { OriginRoute } from "./origin-route.ts";

/** Bytes in, the optimized image and its stats out (framed: meta first). */
export const route: OriginRoute = {
  path: imageProcessEndpoint.path,
  async handle(c, { computeSlots, clocks }) {
    const clock = clocks(c, imageProcessEndpoint.path);
    const options = inputOptions(c, imageProcessEndpoint.options);
    const input = await inputBytes(c, inputMaxBytes(options.page ?? undefined));
    const megapixels = await workMegapixels(input, options);
    const image = await computeSlots.run(clock.ticket(input.byteLength, megapixels), "The image", () => processImage(input, options));
    const { bytes, ...meta } = image;
    return framedResponse(imageProcessEndpoint, meta, bytes);
  },
};
