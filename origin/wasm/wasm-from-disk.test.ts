import { describe, expect, it } from "vitest";
import { wasmFromDisk } from "./wasm-from-disk.ts";

describe("wasmFromDisk", () => {
  it("reads a package's .wasm as a module WebAssembly compiles", async () => {
    const { wasmBinary } = wasmFromDisk("@jsquash/webp/codec/dec/webp_dec.wasm");
    expect([...new Uint8Array(wasmBinary, 0, 4)]).toEqual([0x00, 0x61, 0x73, 0x6d]);
    expect(WebAssembly.Module.exports(await WebAssembly.compile(wasmBinary)).length).toBeGreaterThan(0);
  });

  it("fails on a file the package does not have", () => {
    expect(() => wasmFromDisk("@jsquash/webp/codec/dec/missing.wasm")).toThrow();
  });
});
