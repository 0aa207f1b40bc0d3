// The Workers static assets (wrangler.toml [assets]): what the service serves as files rather than
// from code. wrangler.toml's [build] runs this before every `wrangler dev` and `wrangler deploy`,
// so a fresh clone needs nothing but `npm install`. The files come out of node_modules, not out
// of git: Scalar's bundle is 4 MB of someone else's build output, pinned by package-lock.json.
// The console (console/, served at /) is built here from its source.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SCALAR_API_REFERENCE_VERSION, SCALAR_BUNDLE_PATH } from "../workers/docs/scalar-bundle.ts";
import { CONSOLE_SECURITY_HEADERS } from "../workers/http/page-security-headers.ts";
import { buildConsole } from "./lib/console-assets.ts";

const ASSETS_DIR = "dist/assets";
const SCALAR_PACKAGE = "node_modules/@scalar/api-reference";
const IMMUTABLE = "public, max-age=31536000, immutable";

const installed = (JSON.parse(readFileSync(join(SCALAR_PACKAGE, "package.json"), "utf8")) as { version: string }).version;
if (installed !== SCALAR_API_REFERENCE_VERSION) {
  // The path names the version and is cached as immutable: other bytes must never go out under it.
  throw new Error(`@scalar/api-reference ${installed} is installed, but workers/docs/scalar-bundle.ts pins ${SCALAR_API_REFERENCE_VERSION}: change both together.`);
}
const bundle = join(ASSETS_DIR, SCALAR_BUNDLE_PATH);
mkdirSync(dirname(bundle), { recursive: true });
copyFileSync(join(SCALAR_PACKAGE, "dist/browser/standalone.js"), bundle);
// Workers static assets take their response headers from this file; every rule a path matches applies.
const headerLines = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => `  ${name}: ${value}\n`).join("");
writeFileSync(join(ASSETS_DIR, "_headers"), `/*\n${headerLines(CONSOLE_SECURITY_HEADERS)}${SCALAR_BUNDLE_PATH}\n${headerLines({ "Cache-Control": IMMUTABLE })}`);

const built = await buildConsole(ASSETS_DIR);
console.log(`console: ${built.scriptBytes} bytes of script, ${built.scriptGzipBytes} gzipped (${built.entryGzipBytes} loaded at first)`);
