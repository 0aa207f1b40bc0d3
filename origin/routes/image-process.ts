import type { Hono } from "hono";
import { imageProcessEndpoint } from "../../contracts/origin/image-process.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import { inputMaxBytes } from "../image/decode-limits.ts";
import { processImage } from "../image/process-image.ts";
import { workMegapixels } from "../image/work-pixels.ts";
import type { ComputeSlots } from "../worker-pool/compute-slots.ts";
import type { CallClocks } from "./call-ticket.ts";

/** Bytes in, the optimized image and its stats out (framed: meta first). */
export function registerImageProcess(app: Hono, slots: ComputeSlots, clocks: CallClocks): void {
  app.post(imageProcessEndpoint.path, async (c) => {
    const clock = clocks(c, imageProcessEndpoint.path);
    const options = inputOptions(c, imageProcessEndpoint.options);
    const input = await inputBytes(c, inputMaxBytes(options.page ?? undefined));
    const megapixels = await workMegapixels(input, options);
    const image = await slots.run(clock.ticket(input.byteLength, megapixels), "The image", () => processImage(input, options));
    const { bytes, ...meta } = image;
    return framedResponse(imageProcessEndpoint, meta, bytes);
  });
}
