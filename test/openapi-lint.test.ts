import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";

describe("the OpenAPI document the running edge serves", () => {
  it("passes @redocly/cli lint with zero errors", async () => {
    const res = await fetch(`${inject("edgeUrl")}/openapi.json`);
    expect(res.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), "openapi-"));
    const file = join(dir, "openapi.json");
    writeFileSync(file, await res.text());
    writeFileSync(join(dir, "redocly.yaml"), "extends:\n  - recommended\n");
    let output: string;
    try {
      output = execFileSync("node_modules/.bin/redocly", ["lint", file, "--config", join(dir, "redocly.yaml"), "--format", "json"], {
        encoding: "utf8",
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      });
    } catch (error) {
      output = (error as { stdout: string }).stdout;
    }
    const report = JSON.parse(output) as { totals: { errors: number }; problems: { severity: string; message: string; location: { pointer: string }[] }[] };
    const errors = report.problems.filter((p) => p.severity === "error").map((p) => `${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });
});
