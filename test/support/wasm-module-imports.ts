// wrangler compiles a `*.wasm?module` import to a WebAssembly.Module before workerd sees it. This
// plugin does the same for a Node test, so the edge's own codec module (workers/edge-image/codecs.ts)
// runs unchanged beside the origin's code.
import type { Plugin } from "vitest/config";

// A virtual id: with the file's path in it the runner would take it for a dependency and hand it
// to Node's loader, which cannot import a `.wasm` file as a module.
const PREFIX = "\0wasm-module/";

export function wasmModuleImports(): Plugin {
  return {
    name: "wasm-module-imports",
    enforce: "pre",
    async resolveId(source, importer) {
      if (!source.endsWith(".wasm?module")) return null;
      const resolved = await this.resolve(source.slice(0, -"?module".length), importer, { skipSelf: true });
      return resolved ? `${PREFIX}${Buffer.from(resolved.id).toString("base64url")}` : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const path = JSON.stringify(Buffer.from(id.slice(PREFIX.length), "base64url").toString());
      return `import { readFileSync } from "node:fs";\nexport default new WebAssembly.Module(readFileSync(${path}));`;
    },
  };
}
