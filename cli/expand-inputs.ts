import { glob, stat } from "node:fs/promises";
import { CliError } from "./cli-error.ts";

const GLOB_CHARACTERS = /[*?[\]{}]/;

/** Files named or matched by each argument (shells without globbing pass patterns through), in order, once each. */
export async function expandInputs(patterns: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const pattern of patterns) {
    if (!GLOB_CHARACTERS.test(pattern)) {
      const info = await stat(pattern).catch(() => undefined);
      if (!info?.isFile()) throw new CliError(`${pattern}: no such file`);
      files.push(pattern);
      continue;
    }
    const matched: string[] = [];
    for await (const file of glob(pattern)) if ((await stat(file)).isFile()) matched.push(file);
    if (matched.length === 0) throw new CliError(`${pattern}: matched no files`);
    files.push(...matched.sort());
  }
  return [...new Set(files)];
}
