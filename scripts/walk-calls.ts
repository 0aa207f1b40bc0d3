// How far a reader walks to follow one request: from a root function, every call into a project
// function (workers/, origin/, contracts/), depth first in source order, each function's body read
// once. A call into another file than the caller's is a stop; a stop in a file the walk entered
// before is a return. Calls through values (a step list's entries, a callback handed to a library)
// are not followed: a step is found by reading the list, not by a call.
// With --follow, only the functions of the named folders (the path's own room) are read on; a call
// into any other file is a stop, a door seen but not opened, and the walk is also counted inside
// those folders alone.
//   node scripts/walk-calls.ts <tsconfig> <file> <function> [--follow <path prefix>]... [--list]
import { relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import ts from "typescript";

const repo = resolve(import.meta.dirname, "..");
const { positionals, values } = parseArgs({ allowPositionals: true, options: { list: { type: "boolean", default: false }, follow: { type: "string", multiple: true, default: [] } } });
const [configPath, rootFile, rootName] = positionals;
if (!configPath || !rootFile || !rootName) throw new Error("usage: walk-calls.ts <tsconfig> <file> <function> [--list]");

function loadProgram(path: string): ts.Program {
  const config = ts.readConfigFile(path, (file) => ts.sys.readFile(file));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, resolve(path, ".."));
  return ts.createProgram(parsed.fileNames, parsed.options);
}

type FunctionNode = ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression;

function isProjectFile(file: ts.SourceFile): boolean {
  const path = relative(repo, file.fileName);
  return !file.isDeclarationFile && /^(workers|origin|contracts)\//.test(path);
}

/** The function a declaration names: itself, or the arrow or function expression a const or property holds. */
function functionOf(declaration: ts.Declaration): FunctionNode | null {
  if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration)) return declaration.body ? declaration : null;
  if ((ts.isVariableDeclaration(declaration) || ts.isPropertyAssignment(declaration)) && declaration.initializer) {
    const init = declaration.initializer;
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init;
  }
  return null;
}

function calleeOf(checker: ts.TypeChecker, call: ts.CallExpression): FunctionNode | null {
  const at = ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression;
  let symbol = checker.getSymbolAtLocation(at);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  if (!declaration || !isProjectFile(declaration.getSourceFile())) return null;
  return functionOf(declaration);
}

function findRoot(program: ts.Program, file: string, name: string): FunctionNode {
  const source = program.getSourceFile(resolve(repo, file));
  if (!source) throw new Error(`${file} is not in the program`);
  let found: FunctionNode | null = null;
  source.forEachChild(function visit(node) {
    if ((ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node)) && node.name?.getText() === name) found ??= functionOf(node);
    node.forEachChild(visit);
  });
  if (!found) throw new Error(`no function ${name} in ${file}`);
  return found;
}

const program = loadProgram(resolve(repo, configPath));
const checker = program.getTypeChecker();
const root = findRoot(program, rootFile, rootName);
const entered = new Set<string>([relative(repo, root.getSourceFile().fileName)]);
const read = new Set<FunctionNode>();
const stops: string[] = [];
let returns = 0;
// The same walk counted inside the path's own folders only (--follow): the files a reader enters to follow it.
const roomEntered = new Set<string>(entered);
let roomStops = 0;
let roomReturns = 0;

/** Whether the walk reads on into a file's functions: the path's own folders (--follow), else the stop is a door seen, not opened. */
function follows(file: string): boolean {
  return values.follow.length === 0 || values.follow.some((prefix) => file.startsWith(prefix));
}

function walk(fn: FunctionNode, depth: number): void {
  if (read.has(fn)) return;
  read.add(fn);
  const file = relative(repo, fn.getSourceFile().fileName);
  fn.body?.forEachChild(function visit(node) {
    if (ts.isCallExpression(node)) {
      const callee = calleeOf(checker, node);
      if (callee && !read.has(callee)) {
        const target = relative(repo, callee.getSourceFile().fileName);
        if (target !== file) {
          const back = entered.has(target);
          if (back) returns++;
          entered.add(target);
          if (values.follow.length > 0 && follows(target)) {
            roomStops++;
            if (roomEntered.has(target)) roomReturns++;
            roomEntered.add(target);
          }
          stops.push(`${"  ".repeat(depth)}${target} ${node.expression.getText().slice(0, 40)}${back ? "  (return)" : ""}`);
        }
        if (follows(target)) walk(callee, target === file ? depth : depth + 1);
        else read.add(callee);
      }
    }
    node.forEachChild(visit);
  });
}

walk(root, 0);
if (values.list) console.log(stops.join("\n"));
console.log(`${rootName}: ${stops.length} stops in ${entered.size} files, ${returns} returns`);
if (values.follow.length > 0) console.log(`${rootName}, inside ${values.follow.join(" ")}: ${roomStops} stops, ${roomReturns} returns`);
