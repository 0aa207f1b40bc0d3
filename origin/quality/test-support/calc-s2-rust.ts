// The npm package calc-s2-rust (SSIMULACRA 2 in Rust, compiled to WASM), which this module's
// metric is validated against. It takes packed RGB and logs every buffer it allocates.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { calc_s2, initSync, new_buffer } from "calc-s2-rust/calc_s2_rust.js";
import type { RawImage } from "../raw-image.ts";

const wasmPath = createRequire(import.meta.url).resolve("calc-s2-rust/calc_s2_rust_bg.wasm");
const wasm = initSync(readFileSync(wasmPath));

export function calcS2Rust(reference: RawImage, candidate: RawImage): number {
  const log = console.log;
  console.log = () => undefined;
  try {
    for (const [key, image] of [["reference", reference], ["candidate", candidate]] as const) {
      const rgb = packedRgb(image);
      // Allocating may grow the WASM memory, so its buffer is read after.
      const pointer = new_buffer(key, rgb.length);
      new Uint8Array(wasm.memory.buffer, pointer, rgb.length).set(rgb);
    }
    return calc_s2("reference", "candidate", reference.width, reference.height);
  } finally {
    console.log = log;
  }
}

function packedRgb(image: RawImage): Uint8Array {
  if (image.channels === 3) return image.data;
  const rgb = new Uint8Array(image.width * image.height * 3);
  for (let i = 0, j = 0; j < rgb.length; i += 4, j += 3) rgb.set(image.data.subarray(i, i + 3), j);
  return rgb;
}
