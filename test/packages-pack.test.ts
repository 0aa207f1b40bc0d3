import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

interface PackageJson {
  name: string;
  bin?: Record<string, string>;
  exports?: Record<string, string | { types: string; default: string }>;
}

interface PackReport {
  name: string;
  files: { path: string }[];
}

const packageDirs = readdirSync("packages", { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => join("packages", entry.name));

/** The files a package.json promises a user: its bin and every export's types and code. */
function promisedFiles(pkg: PackageJson): string[] {
  const exported = Object.values(pkg.exports ?? {}).flatMap((target) => (typeof target === "string" ? [] : [target.types, target.default]));
  return [...Object.values(pkg.bin ?? {}), ...exported].map((path) => path.replace(/^\.\//, ""));
}

describe("npm pack in the workspaces", () => {
  it("builds each package first, so every tarball holds the dist/ its package.json points at", () => {
    for (const dir of packageDirs) rmSync(join(dir, "dist"), { recursive: true, force: true });
    const pack = spawnSync("npm", ["pack", "--workspaces", "--dry-run", "--json"], { encoding: "utf8" });
    expect(pack.status, pack.stderr).toBe(0);
    // The prepack scripts' own lines come before npm's JSON on stdout.
    const reports = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("\n[") + 1)) as PackReport[];
    expect(reports).toHaveLength(packageDirs.length);
    for (const dir of packageDirs) {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
      const packed = reports.find((report) => report.name === pkg.name)!.files.map((file) => file.path);
      expect(promisedFiles(pkg).length, pkg.name).toBeGreaterThan(0);
      for (const path of promisedFiles(pkg)) expect(packed, `${pkg.name} packs ${path}`).toContain(path);
    }
  });
});
