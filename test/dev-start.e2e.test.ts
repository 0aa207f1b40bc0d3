// `npm start` is where a newcomer meets the project: a warning there reads as "broken". What it
// prints must be about the developer's own setup or nothing (the global setup starts the pair
// exactly as `npm start` does and keeps what it printed).
import { spawnSync } from "node:child_process";
import { describe, expect, inject, it } from "vitest";
import { migrationSummary, pendingMigrations } from "../scripts/lib/apply-migrations.ts";

function runStart(args: string[]) {
  return spawnSync(process.execPath, ["scripts/dev.ts", ...args], { encoding: "utf8", timeout: 60_000 });
}

it("starts with no warning that is not about the developer's own setup", () => {
  const log = inject("startLog");
  expect(log).toContain("PixelPress is running");
  const warnings = log.split("\n").filter((line) => /warn|durable ?object|experimental/i.test(line));
  expect(warnings).toEqual([]);
});

it("summarises the migrations in one line, with no tables and no prompt text", () => {
  const log = inject("startLog");
  const beforeBanner = log.slice(0, log.indexOf("PixelPress is running"));
  expect(beforeBanner).toMatch(/^migrations: applied \d+ \(0000_platform … \d{4}_[\w-]+\)$/m);
  expect(beforeBanner).not.toMatch(/fallback value|About to apply|[│┌└├]/);
});

describe("npm start -- --help", () => {
  it("lists every flag and exits 0 without starting anything", () => {
    const run = runStart(["--help"]);
    expect(run.status).toBe(0);
    for (const flag of ["--port PORT", "--origin-port PORT", "--persist-to DIR", "--allow-loopback-urls", "--origin-url URL", "--help"]) {
      expect(run.stdout).toContain(flag);
    }
    expect(run.stdout).toContain("(default 8787)");
    expect(run.stdout).not.toContain("migrations:");
  });

  it("names an unknown flag and prints the usage, not a stack trace", () => {
    const run = runStart(["--prot", "9000"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--prot");
    expect(run.stderr).toContain("Usage: npm start -- [options]");
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});

describe("the migration summary", () => {
  const pending = `Migrations to be applied:
│ 0000_platform.sql                 │
│ 0001_ledger_debit.sql             │
? About to apply 2 migration(s)
│ 0000_platform.sql                 │ ✅     │
│ 0001_ledger_debit.sql             │ 🕒️    │`;

  it("counts what wrangler listed before applying, once each", () => {
    expect(pendingMigrations(pending)).toEqual(["0000_platform.sql", "0001_ledger_debit.sql"]);
    expect(migrationSummary(pendingMigrations(pending))).toBe("migrations: applied 2 (0000_platform … 0001_ledger_debit)");
  });

  it("says the database is up to date when nothing was pending", () => {
    expect(pendingMigrations("✅ No migrations to apply!")).toEqual([]);
    expect(migrationSummary([])).toBe("migrations: the local database is up to date");
  });
});
