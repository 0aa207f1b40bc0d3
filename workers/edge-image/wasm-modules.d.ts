// wrangler (and the vitest plugin) compile `*.wasm?module` imports to a WebAssembly.Module at
// build time; workerd refuses to compile WASM from bytes at runtime. The `?module` suffix also
// keeps TypeScript away from the `.wasm.d.ts` files wasm-bindgen ships beside some codecs.
declare module "*.wasm?module" {
  const compiled: WebAssembly.Module;
  export default compiled;
}
