// The console (console/) as static assets: its page at /, its script bundled by esbuild with
// preact and htm inside, its stylesheet and icon. No file of it comes from anywhere but this
// repository and node_modules, so the console works with no internet access.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import sharp from "sharp";

/** The budget for the whole console's script, gzipped. */
export const CONSOLE_SCRIPT_BUDGET_GZIP_BYTES = 150 * 1024;

export interface ConsoleBuild {
  /** Every script file the console can load (its entry and the chunks it imports on demand). */
  scriptBytes: number;
  scriptGzipBytes: number;
  /** What the page loads before any section is opened: the entry and the chunks it imports statically. */
  entryGzipBytes: number;
}

const ICO_SIZE = 32;

/**
 * The icon browsers and crawlers ask /favicon.ico for, whatever the page names: the SVG icon drawn
 * as one PNG image in an ICO container (a 6-byte header and one 16-byte directory entry).
 */
async function icoOf(svgPath: string): Promise<Buffer> {
  const png = await sharp(svgPath, { density: 300 }).resize(ICO_SIZE, ICO_SIZE).png().toBuffer();
  const header = Buffer.alloc(22);
  header.writeUInt16LE(1, 2); // type 1: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(ICO_SIZE, 6);
  header.writeUInt8(ICO_SIZE, 7);
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, png]);
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
  writeFileSync(join(assetsDir, "favicon.ico"), await icoOf("console/favicon.svg"));
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
