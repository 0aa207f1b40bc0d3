// Holds the documents to the code where a statement can be checked mechanically: the files and
// links they name exist, the generated pages are current, the tables that restate code agree with
// it, the request chain stated is the chain mounted, and the README and the architecture stay
// within their sizes.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatMicros, prices } from "../contracts/pricing.ts";
import { stalePages } from "../scripts/generate-docs.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

const DOCS = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];
/** docs/scale.md is the lead's page: its tables are not held to this page's row length. */
const OWN_DOCS = DOCS.filter((doc) => doc !== "docs/scale.md");

/** Where a path written without its tier folder (`routes/index.ts`, `image/`) is looked up. */
const PATH_ROOTS = ["", "workers/", "origin/", "contracts/", "clients/ts/", "console/", "scripts/", "test/"];
const FILE_PATH = /^[\w.-]+(\/[\w.-]+)*(\.(ts|md|json|toml|sql|mjs|sh|png|wasm|html|svg|css)|\/)$/;

/** The inline-code spans of a markdown text outside its fenced blocks. */
function inlineCode(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "");
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
}

/** A span that names a repository path: a file with an extension, or a folder with a slash. */
function namedPaths(text: string): string[] {
  return inlineCode(text).filter((span) => FILE_PATH.test(span) && span.includes("/") && !span.startsWith("/"));
}

/** Folders .gitignore names (`.wrangler/`, `dist/`) are made by a run or a build, not kept in the repository. */
const BUILT_FOLDERS = read(".gitignore")
  .split("\n")
  .filter((line) => line.endsWith("/"));

function pathExists(path: string): boolean {
  if (BUILT_FOLDERS.some((folder) => path.startsWith(folder))) return true;
  return PATH_ROOTS.some((root) => existsSync(join(ROOT, root, path)));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(text: string): string[] {
  return [...text.replace(/```[\s\S]*?```/g, "").matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1]!));
}

/** The relative links of a markdown text, resolved from its own folder: [path, anchor]. */
function links(doc: string): { target: string; fragment: string | undefined }[] {
  const text = read(doc).replace(/```[\s\S]*?```/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((href) => !/^[a-z]+:/.test(href))
    .map((href) => {
      const [path, fragment] = href.split("#");
      const target = path === "" ? doc : relative(ROOT, join(ROOT, dirname(doc), path!));
      return { target, fragment };
    });
}

/** The section under a `## ` heading, to the next one. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section "## ${heading}"`);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** Every operation of the generated client types, as `METHOD /path`. */
function openApiOperations(): string[] {
  const operations: string[] = [];
  let path = "";
  for (const line of read("clients/ts/api-types.ts").split("\n")) {
    const pathLine = /^ {4}"(\/[^"]*)": \{$/.exec(line);
    if (pathLine) path = pathLine[1]!;
    const methodLine = /^ {8}(get|put|post|delete|patch): \{$/.exec(line);
    if (methodLine && path !== "") operations.push(`${methodLine[1]!.toUpperCase()} ${path}`);
    if (line === "}") path = "";
  }
  return operations;
}

/** The names a middleware list mounts, in order: identifiers, and the function an arrow handler calls. */
function handlerNames(args: string): string[] {
  return args
    .split(",")
    .map((piece) => piece.trim())
    .flatMap((piece) => (/^\w+$/.test(piece) ? [piece] : (/=>\s*(\w+)\(/.exec(piece)?.slice(1) ?? [])));
}

/** A chain as architecture.md writes it: each name in backticks, joined by arrows. */
function writtenChain(names: string[]): string {
  return names.map((name) => `\`${name}\``).join(" → ");
}

/** architecture.md with its line breaks as spaces, so a chain may wrap. */
function architectureProse(): string {
  return read("docs/architecture.md").replace(/\s*\n\s*/g, " ");
}

describe("the documents", () => {
  it.each(DOCS)("%s names only files that exist", (doc) => {
    expect(namedPaths(read(doc)).filter((path) => !pathExists(path))).toEqual([]);
  });

  it.each(DOCS)("%s links only to files and headings that exist", (doc) => {
    const broken = links(doc).filter(({ target, fragment }) => {
      if (!existsSync(join(ROOT, target))) return true;
      return fragment !== undefined && target.endsWith(".md") && !anchorsOf(read(target)).includes(fragment);
    });
    expect(broken).toEqual([]);
  });

  it.each(OWN_DOCS)("%s has no table row longer than 300 characters", (doc) => {
    const long = read(doc)
      .split("\n")
      .filter((line) => line.startsWith("|") && line.length > 300)
      .map((line) => `${line.slice(0, 60)}… (${line.length})`);
    expect(long).toEqual([]);
  });

  it("the README stays within 350 lines and its quick start is two commands", () => {
    const readme = read("README.md");
    expect(readme.split("\n").length).toBeLessThanOrEqual(350);
    const block = /```\n([\s\S]*?)```/.exec(section(readme, "Quick start"))?.[1] ?? "";
    expect(block.split("\n").filter((line) => line.trim() !== "")).toEqual(["npm install && npm start", "npm install && npm test"]);
  });

  it("the generated pages are up to date (run `npm run generate:docs`)", () => {
    expect(stalePages()).toEqual([]);
  });

  it("docs/endpoints.md lists every operation of the OpenAPI document", () => {
    const operations = openApiOperations();
    expect(operations.length).toBeGreaterThan(30);
    const table = read("docs/endpoints.md");
    expect(operations.filter((operation) => !table.includes(`| \`${operation}\` |`))).toEqual([]);
  });

  it("docs/money.md states every price of contracts/pricing.ts", () => {
    const money = read("docs/money.md");
    const missing = Object.entries(prices).filter(([, micros]) => micros > 0 && !money.includes(formatMicros(micros)));
    expect(missing).toEqual([]);
  });

  it("docs/architecture.md stays within 300 lines", () => {
    expect(read("docs/architecture.md").split("\n").length).toBeLessThanOrEqual(300);
  });

  it("docs/architecture.md states the chain workers/app.ts mounts", () => {
    const app = read("workers/app.ts");
    const everyPath = /app\.use\("\*", ([^)]*)\);/.exec(app)?.[1];
    const apiGate = /every\(([^)]*)\)/.exec(app)?.[1];
    if (everyPath === undefined || apiGate === undefined) throw new Error("workers/app.ts no longer mounts app.use(\"*\", …) and every(…)");
    const prose = architectureProse();
    expect(prose).toContain(writtenChain(handlerNames(everyPath)));
    expect(prose).toContain(writtenChain(handlerNames(apiGate)));
  });

  it("docs/architecture.md states the chain the transform route mounts", () => {
    const route = read("workers/routes/v1_image_transform.ts");
    const handlers = /createHandlers\(([\s\S]*?)\);\n/.exec(route)?.[1];
    if (handlers === undefined) throw new Error("workers/routes/v1_image_transform.ts no longer mounts createHandlers(…)");
    expect(architectureProse()).toContain(writtenChain(handlerNames(handlers)));
  });

  it("the docs name only npm scripts and admin commands that exist", () => {
    const text = DOCS.map(read).join("\n");
    const scripts = Object.keys((JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts);
    const named = [...new Set([...text.matchAll(/npm run ([a-z][\w:-]*[a-z])(?![\w:*-])/g)].map((match) => match[1]!))];
    expect(named.filter((script) => !scripts.includes(script))).toEqual([]);
    const admin = read("scripts/admin.ts");
    const commands = [...new Set([...text.matchAll(/npm run admin -- ([a-z]+)(?: ([a-z]+))?/g)].map((match) => match.slice(1, 3).join(" ").trim()))];
    const unknown = commands.filter((command) => {
      const [resource, action] = command.split(" ");
      return !admin.includes(`resource === "${resource}"`) || (action !== undefined && !admin.includes(`action === "${action}"`));
    });
    expect(unknown).toEqual([]);
  });

  it("docs/development.md's suites are the projects of vitest.config.ts", () => {
    const projects = [...read("vitest.config.ts").matchAll(/name: "(\w+)",[^\]]*?include: \[([^\]]*)\]/g)].map((match) => ({
      name: match[1]!,
      include: [...match[2]!.matchAll(/"([^"]+)"/g)].map((glob) => glob[1]!),
    }));
    expect(projects.length).toBeGreaterThan(5);
    const rows = read("docs/development.md").split("\n").filter((line) => line.startsWith("| `"));
    const mismatched = projects.filter(({ name, include }) => {
      const row = rows.find((line) => line.startsWith(`| \`${name}\` |`));
      return row === undefined || include.some((glob) => !row.includes(`\`${glob}\``));
    });
    expect(mismatched.map(({ name }) => name)).toEqual([]);
    expect(rows.length).toBe(projects.length);
  });
});
