// Emscripten builds from npm (the jSquash codecs) fetch their .wasm by URL, which Node cannot do
// for a file; handed the bytes as `wasmBinary`, they skip the fetch.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** Emscripten module options carrying a package's .wasm, read from disk: `specifier` as `import` would resolve it. */
export function wasmFromDisk(specifier: string): { wasmBinary: Buffer } {
  return { wasmBinary: readFileSync(createRequire(import.meta.url).resolve(specifier)) };
}
