import { existsSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Where a result goes: `outDir`, or beside the source, under the name contracts/derived-file-name.ts gives it. */
export function outputPathFor(source: string, derivedName: string, outDir?: string): string {
  return join(outDir ?? dirname(source), derivedName);
}

function canonical(path: string): string {
  return existsSync(path) ? realpathSync(path) : resolve(path);
}

/** True when writing `output` would replace one of `sources`, through any path spelling or symlink. */
export function overwritesSource(output: string, sources: string[]): boolean {
  const target = canonical(output);
  return sources.some((source) => canonical(source) === target);
}
