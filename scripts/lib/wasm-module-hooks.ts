// Node module hooks: `import m from "x.wasm?module"` yields a compiled WebAssembly.Module, which is
// what wrangler's bundler gives the edge in workerd. Lets Node import the edge app (createApp) to
// read its OpenAPI document; nothing here instantiates the modules.
interface LoadResult {
  format: string;
  source?: string;
  shortCircuit?: boolean;
}
type NextLoad = (url: string, context: object) => Promise<LoadResult>;

export async function load(url: string, context: object, nextLoad: NextLoad): Promise<LoadResult> {
  if (!url.startsWith("file:") || !url.endsWith(".wasm?module")) return nextLoad(url, context);
  const file = JSON.stringify(url.slice(0, -"?module".length));
  return {
    format: "module",
    shortCircuit: true,
    source: `import { readFileSync } from "node:fs";\nexport default new WebAssembly.Module(readFileSync(new URL(${file})));\n`,
  };
}
