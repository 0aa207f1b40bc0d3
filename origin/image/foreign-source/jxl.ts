// JPEG XL, decoded by libjxl compiled to WebAssembly (@jsquash/jxl) in worker threads
// (jxl-worker.ts) that the call's deadline terminates. The decoder hands back sRGB (it applies
// the file's colour encoding itself), so the pixels go on as an untagged PNG.
import type { z } from "@hono/zod-openapi";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { currentTicket } from "../../worker-pool/deadline.ts";
import { outcomeReplySchema, resultOf } from "../../worker-pool/job-outcome.ts";
import { poolSizes } from "../../worker-pool/pool-sizes.ts";
import { WorkerPool } from "../../worker-pool/worker-pool.ts";
import type { JxlRequest } from "./jxl-worker.ts";
import { jxlSize } from "./jxl-size.ts";
import { pngWithProfile, type RgbaPixels } from "./png-with-profile.ts";

const jxlReplySchema = outcomeReplySchema<RgbaPixels>();

// A WebAssembly heap only grows: a thread that decoded a large image is replaced before the next job.
const LARGE_IMAGE_PIXELS = 16_000_000;
const JOBS_PER_THREAD = 32;

let jxlPool: WorkerPool<Omit<JxlRequest, "id">, z.infer<typeof jxlReplySchema>> | undefined;

/** The decoding threads, started by the first JPEG XL. As many as compute slots: each decode holds one. */
function jxlDecoders() {
  const size = poolSizes().computeSlots;
  jxlPool ??= new WorkerPool({
    workerUrl: new URL("./jxl-worker.ts", import.meta.url),
    name: "JPEG XL decoding pool",
    size,
    maxPerAccount: size,
    readReply: (message) => jxlReplySchema.parse(message),
    retireAfter: (reply, jobs) => jobs >= JOBS_PER_THREAD || (reply.outcome.ok && reply.outcome.result.width * reply.outcome.result.height > LARGE_IMAGE_PIXELS),
    unrefWhenIdle: true,
  });
  return jxlPool;
}

export async function jxlToPng(bytes: Uint8Array, maxPixels: number): Promise<Uint8Array> {
  const size = jxlSize(bytes);
  if (!size) throw new ProblemError("image_unreadable", "The JPEG XL image has no readable header.");
  if (size.width * size.height > maxPixels) {
    throw new ProblemError("image_too_large", `The image is ${size.width}x${size.height}; the limit is ${maxPixels} pixels.`, {
      extensions: { limit_pixels: maxPixels },
    });
  }
  const reply = await jxlDecoders().run({ jxl: bytes }, [], currentTicket());
  if (!reply.outcome.ok && "error" in reply.outcome) {
    throw new ProblemError("image_unreadable", `The JPEG XL image cannot be decoded: ${reply.outcome.error.split("\n")[0]}.`);
  }
  return pngWithProfile(resultOf(reply.outcome, "Decoding a JPEG XL"), null);
}
