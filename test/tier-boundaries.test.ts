import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The same command .ci/run uses (`npm run check:boundaries`), run on this tree and on a tree with
// one planted import across each boundary.
const config = resolve(".dependency-cruiser.mjs");
const depcruise = resolve("node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");

function checkBoundaries(cwd: string, folders: string[]) {
  const run = spawnSync(process.execPath, [depcruise, "--config", config, ...folders], { cwd, encoding: "utf8" });
  return { status: run.status, output: run.stdout + run.stderr };
}

const planted = mkdtempSync(join(tmpdir(), "tier-boundaries-"));
afterAll(() => rmSync(planted, { recursive: true, force: true }));

function plant(files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(planted, path)), { recursive: true });
    writeFileSync(join(planted, path), text);
  }
}

describe("the tier boundary check", () => {
  it("passes on this repository", () => {
    const run = checkBoundaries(process.cwd(), ["contracts", "workers", "origin", "clients", "cli"]);
    expect(run.output).toContain("no dependency violations found");
    expect(run.status).toBe(0);
  });

  it("fails on an import across each boundary, naming the rule", () => {
    plant({
      "contracts/limits.ts": 'import { handler } from "../workers/route.ts";\nexport const limit = handler;\n',
      "workers/route.ts": 'import { encode } from "../origin/encode.ts";\nexport const handler = encode;\n',
      "origin/encode.ts": 'import { store } from "../workers/store.ts";\nexport const encode = store;\n',
      "workers/store.ts": "export const store = 1;\n",
      "clients/ts/index.ts": 'import { encode } from "../../origin/encode.ts";\nexport const client = encode;\n',
      "cli/main.ts": 'import { store } from "../workers/store.ts";\nexport const cli = store;\n',
    });
    const run = checkBoundaries(planted, ["contracts", "workers", "origin", "clients", "cli"]);
    expect(run.status).not.toBe(0);
    for (const violation of [
      "contracts-import-nothing-local: contracts/limits.ts → workers/route.ts",
      "edge-never-imports-origin: workers/route.ts → origin/encode.ts",
      "origin-imports-only-contracts: origin/encode.ts → workers/store.ts",
      "clients-import-only-contracts: clients/ts/index.ts → origin/encode.ts",
      "clients-import-only-contracts: cli/main.ts → workers/store.ts",
    ]) {
      expect(run.output).toContain(violation);
    }
  });
});
