import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The same script .ci/run uses (`npm run check:migrations`), on migrations/ and on a copy that
// lacks the newest migration: the schema then has a change no migration makes.
function checkMigrations(args: string[] = []) {
  const run = spawnSync(process.execPath, ["scripts/check-migrations.ts", ...args], { encoding: "utf8" });
  return { status: run.status, output: run.stdout + run.stderr };
}

const behind = mkdtempSync(join(tmpdir(), "migrations-behind-"));
afterAll(() => rmSync(behind, { recursive: true, force: true }));

describe("the schema/migrations check", () => {
  it("passes on this repository", () => {
    const run = checkMigrations();
    expect(run.output).toContain("agree");
    expect(run.status).toBe(0);
  });

  it("fails when the schema is ahead of migrations/", () => {
    cpSync("migrations", behind, { recursive: true });
    const journalPath = join(behind, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number; tag: string }[] };
    const newest = journal.entries.pop()!;
    writeFileSync(journalPath, JSON.stringify(journal, null, 2));
    rmSync(join(behind, `${newest.tag}.sql`));
    rmSync(join(behind, "meta", `${String(newest.idx).padStart(4, "0")}_snapshot.json`));
    expect(readdirSync(behind)).not.toContain(`${newest.tag}.sql`);

    const run = checkMigrations(["--migrations", behind]);
    expect(run.status).toBe(1);
    expect(run.output).toContain("disagree");
  });
});
