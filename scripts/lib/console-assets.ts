// The console (console/) as static assets: its page at /, its script bundled by esbuild with
// preact and htm inside, its stylesheet and icon. No file of it comes from anywhere but this
// repository and node_modules, so the console works with no internet access.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/** The budget for the whole console's script, gzipped. */
export const CONSOLE_SCRIPT_BUDGET_GZIP_BYTES = 150 * 1024;

export interface ConsoleBuild {
  /** Every script file the console can load (its entry and the chunks it imports on demand). */
  scriptBytes: number;
  scriptGzipBytes: number;
  /** What the page loads before any section is opened: the entry and the chunks it imports statically. */
  entryGzipBytes: number;
}

export async function buildConsole(assetsDir: string): Promise<ConsoleBuild> {
  const outDir = join(assetsDir, "console");
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const { metafile } = await build({
    entryPoints: { console: "console/main.ts" },
    bundle: true,
    // A section imported on demand becomes its own chunk, loaded when first opened.
    splitting: true,
    format: "esm",
    target: "es2022",
    minify: true,
    legalComments: "none",
    outdir: outDir,
    chunkNames: "chunks/[name]-[hash]",
    metafile: true,
    logLevel: "warning",
  });
  copyFileSync("console/styles.css", join(outDir, "console.css"));
  copyFileSync("console/index.html", join(assetsDir, "index.html"));
  copyFileSync("console/favicon.svg", join(assetsDir, "favicon.svg"));
  const gzipped = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;
  const scripts = Object.keys(metafile.outputs).filter((path) => path.endsWith(".js"));
  const entry = join(outDir, "console.js");
  const loadedAtFirst = [entry, ...metafile.outputs[entry]!.imports.filter((imported) => imported.kind === "import-statement").map((imported) => imported.path)];
  const built = {
    scriptBytes: scripts.reduce((sum, path) => sum + readFileSync(path).length, 0),
    scriptGzipBytes: scripts.reduce((sum, path) => sum + gzipped(path), 0),
    entryGzipBytes: loadedAtFirst.reduce((sum, path) => sum + gzipped(path), 0),
  };
  if (built.scriptGzipBytes > CONSOLE_SCRIPT_BUDGET_GZIP_BYTES) {
    throw new Error(`The console's scripts are ${built.scriptGzipBytes} bytes gzipped, over their budget of ${CONSOLE_SCRIPT_BUDGET_GZIP_BYTES}: something heavy was bundled.`);
  }
  return built;
}
