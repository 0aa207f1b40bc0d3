// Builds the installable packages in packages/: each library gets the JavaScript and .d.ts of its
// entries and of every module they reach (clients/ts and contracts/ alike, copied under its own
// dist/), so an installed package never reaches outside itself; the CLI is one bundled file that
// runs on Node 20. Then checks what a user would trip on: a version out of step, or an import of a
// package its package.json does not declare. `npm pack --workspaces` packs the result: each
// package's `prepack` runs this script with its own directory, so a pack never lacks its dist/.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { build } from "esbuild";

interface PackageJson {
  name: string;
  version: string;
  exports?: Record<string, string | { types: string; default: string }>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const root = resolve(import.meta.dirname, "..");
const packagesDir = join(root, "packages");
const rootVersion = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson).version;

const RELATIVE = /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g;
const BARE = /(?:from|import)\s*\(?\s*"([^."/][^"]*)"/g;

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
}

function specifiers(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || builtinModules.includes(specifier);
}

/** Fails on an import of a package the package.json neither depends on nor takes as a peer. */
function checkDeclared(pkg: PackageJson, files: string[]): void {
  const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
  for (const file of files) {
    for (const specifier of specifiers(readFileSync(file, "utf8"), BARE)) {
      if (!isBuiltin(specifier) && !declared.has(packageOf(specifier))) {
        throw new Error(`${pkg.name}: ${relative(root, file)} imports ${specifier}, which its package.json does not declare`);
      }
    }
  }
}

/** Every emitted file the entries reach by relative import, .js and .d.ts alike. */
function reachedFrom(staged: string, entries: string[]): Set<string> {
  const reached = new Set<string>();
  const pending = entries.flatMap((entry) => [`${entry}.js`, `${entry}.d.ts`]);
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (reached.has(file)) continue;
    if (!existsSync(join(staged, file))) throw new Error(`${file} was not emitted`);
    reached.add(file);
    const text = readFileSync(join(staged, file), "utf8");
    for (const specifier of specifiers(text, RELATIVE)) {
      const target = join(dirname(file), specifier);
      if (file.endsWith(".d.ts")) pending.push(target.replace(/\.(ts|js)$/, ".d.ts"));
      else pending.push(target);
    }
  }
  return reached;
}

function buildLibrary(dir: string, pkg: PackageJson, staged: string): void {
  const entries = Object.values(pkg.exports ?? {}).flatMap((target) => (typeof target === "string" ? [] : [target.default.replace(/^\.\/dist\//, "").replace(/\.js$/, "")]));
  const dist = join(dir, "dist");
  const copied: string[] = [];
  for (const file of reachedFrom(staged, entries)) {
    const to = join(dist, file);
    mkdirSync(dirname(to), { recursive: true });
    // tsc rewrites `.ts` to `.js` in JavaScript but leaves declarations' specifiers as written, and a
    // consumer without allowImportingTsExtensions (or with nodenext) must read `.js` there too.
    const text = readFileSync(join(staged, file), "utf8");
    writeFileSync(to, file.endsWith(".d.ts") ? text.replace(RELATIVE, (match, specifier: string) => match.replace(specifier, specifier.replace(/\.ts$/, ".js"))) : text);
    copied.push(to);
  }
  checkDeclared(pkg, copied);
}

/** The `pixelpress` bin as one ES module file for Node 20+; test/cli.e2e.test.ts runs what this writes. */
export async function bundleCli(outfile: string): Promise<void> {
  await build({
    entryPoints: [join(root, "cli/bin.ts")],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    minify: true,
    legalComments: "linked",
    // Bundled CommonJS dependencies call require() for Node built-ins, which an ES module lacks;
    // esbuild keeps bin.ts's #! line above the banner.
    banner: { js: `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);` },
    logLevel: "warning",
  });
}

async function buildCli(dir: string, pkg: PackageJson): Promise<void> {
  const outfile = join(dir, Object.values(pkg.bin ?? {})[0]!);
  await bundleCli(outfile);
  checkDeclared(pkg, [outfile]);
}

/** Every package directory, or only those named (a package's `prepack` names its own). */
function packageDirs(named: string[]): string[] {
  if (named.length > 0) return named.map((dir) => resolve(dir));
  return readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(packagesDir, entry.name));
}

async function buildPackages(dirs: string[]): Promise<void> {
  const staged = mkdtempSync(join(tmpdir(), "pixelpress-packages-"));
  try {
    if (dirs.some((dir) => !readPackage(dir).bin)) {
      execFileSync(join(root, "node_modules/.bin/tsc"), ["-p", join(packagesDir, "tsconfig.build.json"), "--outDir", staged], { stdio: "inherit" });
    }
    for (const dir of dirs) {
      const pkg = readPackage(dir);
      if (pkg.version !== rootVersion) throw new Error(`${pkg.name} is at ${pkg.version}, the workspace at ${rootVersion}: the packages are released together`);
      if (!existsSync(join(dir, "README.md"))) throw new Error(`${pkg.name} has no README.md`);
      rmSync(join(dir, "dist"), { recursive: true, force: true });
      if (pkg.bin) await buildCli(dir, pkg);
      else buildLibrary(dir, pkg, staged);
      console.log(`built ${pkg.name}@${pkg.version}`);
    }
  } finally {
    rmSync(staged, { recursive: true, force: true });
  }
}

if (import.meta.main) await buildPackages(packageDirs(process.argv.slice(2)));
