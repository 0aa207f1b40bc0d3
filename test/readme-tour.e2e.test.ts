// The README's five-minute tour, run as written against the pair: its shell block is read from
// README.md and given to bash, with the key and address of this pair and every outside URL served
// on loopback (a generated JPEG for an image, a generated PDF for a PDF, a recorder for the
// webhook). Each curl fails on an error answer, so a step a newcomer could not follow fails here.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { generatedFile } from "./fixtures/generated-files.ts";
import { startLoopbackServer, waitFor } from "./support/loopback-server.ts";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** The tour's shell block: the first ```sh fence under its heading. */
function tourBlock(): string {
  const section = README.slice(README.indexOf("## A five-minute tour"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error("README.md has no ```sh block under '## A five-minute tour'");
  return block;
}

const OUTSIDE_URL = /https:\/\/[^\s"')]+/g;

let outside: Awaited<ReturnType<typeof startLoopbackServer>>;
let script: string;

beforeAll(async () => {
  const block = tourBlock();
  const urls = [...new Set(block.match(OUTSIDE_URL) ?? [])];
  const bodies: Record<string, Uint8Array> = {};
  const local = new Map<string, string>();
  urls.forEach((url, index) => local.set(url, `/outside/${index}${extname(new URL(url).pathname)}`));
  for (const [url, path] of local) {
    if (path.endsWith(".jpg")) bodies[path] = await generatedFile("landscape-1.jpg");
    else if (path.endsWith(".pdf")) bodies[path] = await generatedFile("photo-placed-small.pdf");
    else if (!url.startsWith("https://hooks.")) throw new Error(`the tour names an outside URL the test does not stand in for: ${url}`);
  }
  outside = await startLoopbackServer(bodies);
  const tour = block
    .replace(/^KEY=.*$/m, `KEY=${inject("apiKey")}`)
    .replace(/^API=.*$/m, `API=${inject("edgeUrl")}`)
    .replace(OUTSIDE_URL, (url) => `${outside.url}${local.get(url)!}`);
  // The harness: stop at the first failing command, and make curl fail on an error answer.
  script = `set -euo pipefail\ncurl() { command curl --fail-with-body --show-error "$@"; }\n${tour}`;
});

afterAll(() => outside?.close());

function bash(command: string, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", command], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, output }));
  });
}

describe("the README's five-minute tour", () => {
  it("runs top to bottom as written: every call answers, the download decodes, and the job's webhook arrives", async () => {
    const work = mkdtempSync(join(tmpdir(), "pixelpress-tour-"));
    const { code, output } = await bash(script, work);
    expect(code, output.slice(-4000)).toBe(0);

    // The signed download of the first optimize decodes as WebP.
    const { format } = await sharp(join(work, "optimized.webp")).metadata();
    expect(format).toBe("webp");
    const webhook = await waitFor(() => outside.received.find((request) => request.method === "POST"), 60_000, "the tour's job webhook");
    expect(JSON.parse(webhook.body)).toMatchObject({ type: "job.succeeded" });
  }, 300_000);
});
