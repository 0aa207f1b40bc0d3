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

const plantedTrees: string[] = [];
afterAll(() => plantedTrees.forEach((tree) => rmSync(tree, { recursive: true, force: true })));

/** A fresh tree holding only `files`: each case is judged on its own plants. */
function plant(files: Record<string, string>): string {
  const tree = mkdtempSync(join(tmpdir(), "tier-boundaries-"));
  plantedTrees.push(tree);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  return tree;
}

describe("the tier boundary check", () => {
  it("passes on this repository", () => {
    const run = checkBoundaries(process.cwd(), ["contracts", "workers", "origin", "clients", "cli"]);
    expect(run.output).toContain("no dependency violations found");
    expect(run.status).toBe(0);
  });

  it("fails on an import across each boundary, naming the rule", () => {
    const planted = plant({
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

  it("fails on an import cycle and on a browser entry that reaches signing code, naming the rule", () => {
    const planted = plant({
      "workers/job-runner.ts": 'import { view } from "./job-view.ts";\nexport const runner = view;\n',
      "workers/job-view.ts": 'import { runner } from "./job-runner.ts";\nexport const view = () => runner;\n',
      "clients/ts/index.ts": 'export { sign } from "./images/urls.ts";\nexport { verifyWebhook } from "../../contracts/webhooks/signature.ts";\n',
      "clients/ts/images/urls.ts": 'export { sign } from "../../../contracts/transform/signature.ts";\n',
      "contracts/transform/signature.ts": "export const sign = 1;\n",
      "contracts/webhooks/signature.ts": "export const verifyWebhook = 1;\n",
    });
    const run = checkBoundaries(planted, ["contracts", "workers", "clients"]);
    expect(run.status).not.toBe(0);
    for (const violation of [
      "no-circular: workers/job-runner.ts → ",
      "browser-client-never-signs: clients/ts/index.ts → contracts/transform/signature.ts",
      "browser-client-never-signs: clients/ts/index.ts → contracts/webhooks/signature.ts",
    ]) {
      expect(run.output).toContain(violation);
    }
  });

  it("fails on a browser images entry that reaches zod, a Node built-in or the problem catalogue through contracts/, naming the rule", () => {
    const planted = plant({
      "clients/ts/images.ts":
        'export { level } from "../../contracts/quality.ts";\nexport { digest } from "../../contracts/digest.ts";\nexport { ProblemError } from "../../contracts/problems/catalogue.ts";\n',
      "contracts/problems/catalogue.ts": "export class ProblemError extends Error {}\n",
      "contracts/quality.ts": 'import { z } from "@hono/zod-openapi";\nexport const level = z.enum(["low", "good"]);\n',
      "contracts/digest.ts": 'import { createHash } from "node:crypto";\nexport const digest = createHash;\n',
    });
    const run = checkBoundaries(planted, ["contracts", "clients"]);
    expect(run.status).not.toBe(0);
    for (const violation of [
      "browser-images-entry-plain: clients/ts/images.ts → @hono/zod-openapi",
      "browser-images-entry-plain: clients/ts/images.ts → crypto",
      "browser-images-entry-plain: clients/ts/images.ts → contracts/problems/catalogue.ts",
    ]) {
      expect(run.output).toContain(violation);
    }
  });
});
