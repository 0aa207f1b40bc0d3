// CI: no function in origin/ or workers/ is longer than MAX_LINES (`npm run check:functions`).
// Every function declaration, method, accessor, constructor, function expression and arrow function
// outside the tests is measured from its first line to its last, nested functions included. A long
// one is split into named steps, or allow-listed below with why it is not split yet. Exits 1 naming
// each long function that is not listed and each listed one that is no longer long.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const MAX_LINES = 80;
const FOLDERS = ["origin", "workers"];
const repo = join(import.meta.dirname, "..");

/** `file#name` of a long function that stays for now, and why. */
const ALLOWED: Record<string, string> = {};

interface LongFunction {
  key: string;
  line: number;
  lines: number;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(repo, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && !entry.name.endsWith(".d.ts") && !entry.parentPath.includes("node_modules"))
    .map((entry) => relative(repo, join(entry.parentPath, entry.name)));
}

/** A function's own name, or the name of what it is assigned or passed to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name !== undefined) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText(source).slice(0, 40)})`;
  return "(anonymous)";
}

function longFunctions(file: string): LongFunction[] {
  const source = ts.createSourceFile(file, readFileSync(join(repo, file), "utf8"), ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_LINES) found.push({ key: `${file}#${nameOf(node, source)}`, line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const found = FOLDERS.flatMap(sourceFiles).flatMap(longFunctions);
const problems: string[] = [];
for (const { key, line, lines } of found) {
  const reason = ALLOWED[key];
  const where = `${key.split("#")[0]}:${line} ${key.split("#")[1]}, ${lines} lines`;
  if (reason === undefined) problems.push(`${where}: split it into named steps (at most ${MAX_LINES} lines each)`);
  else console.log(`${where}: allowed, ${reason}`);
}
for (const key of Object.keys(ALLOWED)) if (!found.some((entry) => entry.key === key)) problems.push(`${key} is allow-listed but no longer longer than ${MAX_LINES} lines: remove it from ALLOWED`);
for (const problem of problems) console.error(problem);
console.log(problems.length === 0 ? `origin/ and workers/: no function over ${MAX_LINES} lines but the ${Object.keys(ALLOWED).length} allowed` : `${problems.length} problems`);
process.exitCode = problems.length === 0 ? 0 : 1;
