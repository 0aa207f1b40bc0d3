// Applies the D1 migrations to the local database and says what happened in one line. wrangler's
// own output is two tables per run and a "fallback value" answer to a prompt nobody sees; it is
// kept and printed only when the apply fails, where it is the diagnosis.
import { spawnSync } from "node:child_process";

const MIGRATION_NAME = /\b\d{4}_[\w-]+\.sql\b/g;

/** The migration files wrangler listed as pending before it applied them. */
export function pendingMigrations(wranglerOutput: string): string[] {
  if (/No migrations to apply/i.test(wranglerOutput)) return [];
  const listed = wranglerOutput.split(/About to apply/i)[0] ?? "";
  return [...new Set(listed.match(MIGRATION_NAME) ?? [])];
}

export function migrationSummary(applied: string[]): string {
  if (applied.length === 0) return "migrations: the local database is up to date";
  const names = applied.map((name) => name.replace(/\.sql$/, ""));
  return `migrations: applied ${applied.length} (${names[0]}${names.length > 1 ? ` … ${names.at(-1)}` : ""})`;
}

export function applyLocalMigrations(wrangler: string, persistTo: string): string {
  const run = spawnSync(wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    // CI=true answers wrangler's confirmation itself; wrangler.toml's local S3 credentials are an
    // experimental field on purpose (see there), which tells the developer nothing about their setup.
    env: { ...process.env, CI: "true", WRANGLER_DISABLE_EXPERIMENTAL_WARNING: "true" },
  });
  const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
  if (run.status !== 0) throw new Error(`wrangler d1 migrations apply failed (${run.status ?? run.signal}):\n${output}`);
  return migrationSummary(pendingMigrations(output));
}
