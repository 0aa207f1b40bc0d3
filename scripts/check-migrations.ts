// CI: the drizzle schema (workers/db/schema.ts) and migrations/ must describe the same database.
// `drizzle-kit check` only checks the snapshots against each other, so generate against a copy
// of migrations/: any new file means the schema changed without a migration.
//   npm run check:migrations [-- --migrations DIR]   (DIR: another migrations folder, for the test)
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";

const repo = join(import.meta.dirname, "..");
const { values } = parseArgs({ options: { migrations: { type: "string" } } });
const migrations = values.migrations ? resolve(values.migrations) : join(repo, "migrations");
const scratch = mkdtempSync(join(tmpdir(), "pixelpress-migrations-"));

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

try {
  cpSync(migrations, scratch, { recursive: true });
  // drizzle-kit prefixes --out with "./", so it must be relative to the working directory.
  const out = relative(repo, scratch);
  const run = spawnSync(
    "npx",
    ["drizzle-kit", "generate", "--dialect", "sqlite", "--schema", "./workers/db/schema.ts", "--out", out, "--name", "unmigrated_schema_change"],
    { cwd: repo, encoding: "utf8" },
  );
  const output = run.stdout + run.stderr;
  // A change drizzle-kit cannot tell from a rename makes it ask, and without a terminal it prints
  // the error and still exits 0: that too is a schema no migration describes.
  if (/Interactive prompts require a TTY/.test(output)) {
    process.stderr.write("drizzle-kit would ask whether a column or table was renamed: the schema has changes no migration makes.\n");
  }
  if (run.status !== 0 || /^Error:/m.test(output)) {
    process.stderr.write(`${output}\nworkers/db/schema.ts and ${relative(repo, migrations)}/ disagree, or drizzle-kit failed (exit ${run.status}).\n`);
    process.exit(1);
  }
  const before = listFiles(migrations);
  const after = listFiles(scratch);
  const added = after.filter((file) => !before.includes(file));
  const changed = before.filter((file) => readFileSync(join(migrations, file), "utf8") !== readFileSync(join(scratch, file), "utf8"));
  if (added.length > 0 || changed.length > 0) {
    for (const file of added) process.stderr.write(`new migration needed: ${file}\n${readFileSync(join(scratch, file), "utf8")}\n`);
    for (const file of changed) process.stderr.write(`drizzle-kit would rewrite: ${file}\n`);
    process.stderr.write(`workers/db/schema.ts and ${relative(repo, migrations)}/ disagree: run \`npx drizzle-kit generate\` and commit the migration.\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write("workers/db/schema.ts and migrations/ agree.\n");
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
