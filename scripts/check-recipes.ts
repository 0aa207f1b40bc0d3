// CI: docs/recipes.md's endpoint recipes, walked against the code (`npm run check:recipes`). Each
// recipe's files, filled in for its example, exist and number what its heading says; every module
// that reads the operation list is one the processing recipe edits or lists as derived, and a
// derived one names no operation by hand; the example operation is named nowhere else; every route
// file is an entry of the route list in workers/routes/index.ts; every origin route module serves a
// declared origin endpoint and origin/app.ts registers none by hand. Exits 1 naming what does not hold.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { ORIGIN_DEADLINES } from "../contracts/limits/deadlines.ts";
import { operations } from "../contracts/operations.ts";

const repo = join(import.meta.dirname, "..");
const read = (file: string) => readFileSync(join(repo, file), "utf8");
const TIERS = ["contracts", "workers", "origin", "console", "clients", "cli"];
const OPERATION_LISTS = ["contracts/operations.ts", "workers/operations/operation-list.ts"];

interface Recipe {
  heading: string;
  stated: number;
  files: string[];
  tests: string[];
  derived: string[];
  example: Record<string, string>;
}

const PATH = /`((?:[\w<>.-]+\/)+[\w<>.-]+\.ts)`/g;

/** The text under `**label**` up to the next blank line. */
function listUnder(body: string, label: string): string {
  const after = body.split(`**${label}`)[1];
  if (after === undefined) throw new Error(`no **${label}** list`);
  return after.slice(after.indexOf("\n")).trimStart().split("\n\n")[0]!;
}

function recipe(text: string, heading: string): Recipe {
  const start = text.indexOf(`## ${heading}\n`);
  if (start < 0) throw new Error(`docs/recipes.md has no section "${heading}"`);
  const body = text.slice(start).split("\n## ")[0]!;
  const stated = Number(/\*\*Files \((\d+)\):\*\*/.exec(body)?.[1]);
  // A numbered item's first path is the file it adds or edits; the others are named in passing.
  const files = listUnder(body, "Files")
    .split(/\n(?=\d+\. )/)
    .map((item) => [...item.matchAll(PATH)][0]?.[1] ?? "");
  const paths = (label: string) => [...listUnder(body, label).matchAll(PATH)].map((match) => match[1]!);
  const exampleLine = body.split("\n").find((line) => line.startsWith("Example:")) ?? "";
  const example = Object.fromEntries([...exampleLine.matchAll(/`<(\w+)>` = `([\w.-]+)`/g)].map((match) => [match[1]!, match[2]!]));
  return { heading, stated, files, tests: paths("Tests"), derived: body.includes("**Derived, not edited:**") ? paths("Derived, not edited:") : [], example };
}

const filledIn = (pattern: string, example: Record<string, string>) => pattern.replace(/<(\w+)>/g, (whole, name: string) => example[name] ?? whole);

function sourceFiles(dir: string): string[] {
  if (!existsSync(join(repo, dir))) return [];
  return readdirSync(join(repo, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && !entry.parentPath.includes("node_modules") && !entry.parentPath.includes("test-support"))
    .map((entry) => relative(repo, join(entry.parentPath, entry.name)));
}

/** The repository paths a module imports by a relative specifier. */
function importsOf(file: string): string[] {
  return [...read(file).matchAll(/from "(\.{1,2}\/[^"]+)"/g)].map((match) => normalize(join(dirname(file), match[1]!)));
}

function checkRecipe(recipe: Recipe): string[] {
  const problems: string[] = [];
  if (recipe.files.length !== recipe.stated) problems.push(`"${recipe.heading}" says ${recipe.stated} files and lists ${recipe.files.length}`);
  for (const pattern of [...recipe.files, ...recipe.tests, ...recipe.derived]) {
    const file = filledIn(pattern, recipe.example);
    if (file.includes("<") || !existsSync(join(repo, file))) problems.push(`"${recipe.heading}" names ${pattern}, and its example has no ${file}`);
  }
  return problems;
}

/**
 * Every module reading the operation list is edited by the recipe or derived from the list, and a
 * derived one names no operation. A derived module may read the list through another derived one.
 */
function checkOperationListReaders(processing: Recipe): string[] {
  const problems: string[] = [];
  const edited = new Set(processing.files.map((pattern) => filledIn(pattern, processing.example)));
  const derived = new Set(processing.derived);
  const readers = TIERS.flatMap(sourceFiles).filter((file) => importsOf(file).some((target) => OPERATION_LISTS.includes(target)));
  for (const file of readers) if (!edited.has(file) && !derived.has(file)) problems.push(`${file} reads the operation list but the processing recipe neither edits it nor lists it as derived`);
  for (const file of derived) {
    if (!readers.includes(file) && !importsOf(file).some((target) => derived.has(target))) problems.push(`${file} is listed as derived but does not import the operation list`);
    const named = operations.filter((name) => read(file).includes(`"${name}"`));
    if (named.length > 0) problems.push(`${file} is listed as derived but names ${named.join(", ")} by hand`);
  }
  const example = processing.example.family === undefined ? "" : `${processing.example.family}.${processing.example.verb}`;
  if (!(operations as readonly string[]).includes(example)) problems.push(`the processing recipe's example ${example} is not an operation`);
  for (const file of TIERS.filter((tier) => tier !== "clients").flatMap(sourceFiles)) {
    if (read(file).includes(`"${example}"`) && !edited.has(file)) problems.push(`${file} names ${example}, and the processing recipe does not edit it`);
  }
  return problems;
}

/** Every route file under workers/routes is an entry of the list in index.ts, which mounts nothing by hand. */
function checkRouteList(): string[] {
  const problems: string[] = [];
  const index = read("workers/routes/index.ts");
  if (index.includes("app.openapi(")) problems.push("workers/routes/index.ts registers a route by hand instead of through its route list");
  const list = index.slice(index.indexOf("const routeList"));
  // The name each route file is imported under, and whether the list uses it.
  const listed = new Map([...index.matchAll(/import (?:\* as )?\{?\s*(\w+)[^;]* from "\.\/(v1_\w+\.ts)"/g)].map((match) => [match[2]!, list.includes(match[1]!)]));
  const routeFiles = readdirSync(join(repo, "workers/routes")).filter((name) => /^v1_\w+\.ts$/.test(name) && !name.endsWith(".test.ts"));
  for (const name of routeFiles) {
    const mounts = read(`workers/routes/${name}`).includes("createRoute(");
    if (mounts && listed.get(name) !== true) problems.push(`workers/routes/${name} declares a route that is not in the route list`);
  }
  return problems;
}

/** The module serving each declared origin endpoint, by its path: `/<family>/<verb>` in `origin/routes/<family>-<verb>.ts`. */
function checkOriginRoutes(): string[] {
  const problems: string[] = [];
  const declared = new Set(Object.keys(ORIGIN_DEADLINES).map((path) => `origin/routes/${path.slice(1).replaceAll("/", "-")}.ts`));
  for (const file of declared) if (!existsSync(join(repo, file))) problems.push(`${file} is missing: the origin finds a declared endpoint's route there`);
  for (const file of sourceFiles("origin/routes")) {
    if (/^export const route\b/m.test(read(file)) && !declared.has(file)) problems.push(`${file} exports a route for no declared origin endpoint`);
  }
  const handRegistered = importsOf("origin/app.ts").filter((target) => declared.has(target));
  for (const file of handRegistered) problems.push(`origin/app.ts imports ${file} instead of registering it through origin/routes/route-list.ts`);
  return problems;
}

const text = read("docs/recipes.md");
const processing = recipe(text, "Adding a processing operation");
const resource = recipe(text, "Adding a resource endpoint");
const problems = [...checkRecipe(processing), ...checkRecipe(resource), ...checkOperationListReaders(processing), ...checkRouteList(), ...checkOriginRoutes()];
for (const problem of problems) console.error(problem);
console.log(problems.length === 0 ? `docs/recipes.md: a processing operation in ${processing.stated} files, a resource endpoint in ${resource.stated}, and both walk` : `${problems.length} problems in docs/recipes.md's recipes`);
process.exitCode = problems.length === 0 ? 0 : 1;
