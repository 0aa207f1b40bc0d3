// Emscripten builds from npm (the jSquash codecs) fetch their .wasm by URL, which Node cannot do
// for a file; handed the bytes as `wasmBinary`, they skip the fetch.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * Emscripten module options carrying a package's .wasm, read from disk: `specifier` as `import`
 * would resolve it. The bytes are an ArrayBuffer of their own, the type the codecs declare (a
 * Node Buffer may be a view on a shared pool).
 */
export function wasmFromDisk(specifier: string): { wasmBinary: ArrayBuffer } {
  const bytes = readFileSync(createRequire(import.meta.url).resolve(specifier));
  return { wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) };
}
