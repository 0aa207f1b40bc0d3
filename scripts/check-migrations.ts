// CI: the drizzle schema (workers/db/schema.ts) and migrations/ must describe the same database.
// `drizzle-kit check` only checks the snapshots against each other, so generate against a copy
// of migrations/: any new file means the schema changed without a migration.
//   npm run check:migrations
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const repo = join(import.meta.dirname, "..");
const migrations = join(repo, "migrations");
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
  if (run.status !== 0) {
    process.stderr.write(run.stdout + run.stderr);
    throw new Error(`drizzle-kit generate exited with ${run.status}`);
  }
  const before = listFiles(migrations);
  const after = listFiles(scratch);
  const added = after.filter((file) => !before.includes(file));
  const changed = before.filter((file) => readFileSync(join(migrations, file), "utf8") !== readFileSync(join(scratch, file), "utf8"));
  if (added.length > 0 || changed.length > 0) {
    for (const file of added) process.stderr.write(`new migration needed: ${file}\n${readFileSync(join(scratch, file), "utf8")}\n`);
    for (const file of changed) process.stderr.write(`drizzle-kit would rewrite: ${file}\n`);
    process.stderr.write("workers/db/schema.ts and migrations/ disagree: run `npx drizzle-kit generate` and commit the migration.\n");
    process.exitCode = 1;
  } else {
    process.stdout.write("workers/db/schema.ts and migrations/ agree.\n");
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
