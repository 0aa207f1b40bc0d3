// JPEG XL decoding thread entry. libjxl runs as WebAssembly on the JavaScript thread that calls
// it, and a 4-megapixel file of noise took it 5 s here: decoded in the main process it held the
// event loop (every other call) as long. In a thread of its own, the call's deadline terminates it.
import { parentPort } from "node:worker_threads";
import decodeJxl, { init } from "@jsquash/jxl/decode.js";
import { outcomeOf, type JobOutcome } from "../../worker-pool/job-outcome.ts";
import { wasmFromDisk } from "../../wasm/wasm-from-disk.ts";
import type { RgbaPixels } from "./png-with-profile.ts";

export interface JxlRequest {
  id: number;
  jxl: Uint8Array;
}

export interface JxlReply {
  id: number;
  outcome: JobOutcome<RgbaPixels>;
}

const ready = init(wasmFromDisk("@jsquash/jxl/codec/dec/jxl_dec.wasm"));

async function decode(jxl: Uint8Array): Promise<RgbaPixels> {
  await ready;
  const image = await decodeJxl(jxl.buffer.slice(jxl.byteOffset, jxl.byteOffset + jxl.byteLength) as ArrayBuffer);
  return { data: image.data, width: image.width, height: image.height };
}

async function answer(request: JxlRequest): Promise<void> {
  const reply: JxlReply = { id: request.id, outcome: await outcomeOf(() => decode(request.jxl)) };
  parentPort?.postMessage(reply, reply.outcome.ok ? [reply.outcome.result.data.buffer as ArrayBuffer] : []);
}

parentPort?.on("message", (request: JxlRequest) => void answer(request));
