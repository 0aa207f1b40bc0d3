import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, inject, it } from "vitest";
import XLSX from "xlsx";
import { formatByteSize } from "../contracts/byte-size.ts";
import { prices } from "../contracts/pricing.ts";
import { bundleCli } from "../scripts/build-packages.ts";
import { generatedFile } from "./fixtures/generated-files.ts";
import { startLoopbackServer } from "./support/loopback-server.ts";

// The built bin, as `npx pixelpress` runs it (packages/cli), bundled from the source under test.
let CLI: string;
const env = { ...process.env, API_KEY: inject("apiKey"), API_URL: inject("edgeUrl"), TERM: "xterm", COLUMNS: "120" };

interface Run {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd, env: { ...env, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolveRun({ code, output }));
  });
}

const shellQuote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** The CLI on a pseudo-terminal: util-linux `script` gives it a TTY and returns its exit code (-e). */
function runOnTerminal(args: string[], cwd: string): Promise<Run> {
  return run("script", ["-qfec", [process.execPath, CLI, ...args].map(shellQuote).join(" "), "/dev/null"], cwd);
}

function runPiped(args: string[], cwd: string): Promise<Run> {
  return run(process.execPath, [CLI, ...args], cwd);
}

let work: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "pixelpress-cli-"));
  CLI = join(mkdtempSync(join(tmpdir(), "pixelpress-bin-")), "pixelpress.js");
  await bundleCli(CLI);
  mkdirSync(join(work, "src"));
  for (const name of ["landscape-1.jpg", "portrait-6.jpg", "rgb.png"] as const) writeFileSync(join(work, "src", name), await generatedFile(name));
  writeFileSync(join(work, "src", "truncated.jpg"), (await generatedFile("landscape-2.jpg")).subarray(0, 3000));
  writeFileSync(join(work, "photo.pdf"), await generatedFile("photo-placed-small.pdf"));
});

describe("pixelpress optimize on a terminal", () => {
  it("draws a progress bar with counts, bytes saved and ETA, writes decodable files, and exits 1 for the failed item", async () => {
    const { code, output } = await runOnTerminal(["optimize", "src/*.jpg", "src/rgb.png", "--width", "160", "--format", "webp", "--out", "out"], work);
    expect(code, output).toBe(1);

    const frames = output.split("\r").map((frame) => frame.replaceAll("\x1b[2K", ""));
    const bars = frames.filter((frame) => /^\[[#-]{24}\] \d\/4/.test(frame));
    expect(bars[0]).toMatch(/^\[-{24}\] 0\/4 · saved 0 B · ETA --/);
    expect(bars.at(-1)).toMatch(/^\[#{24}\] 4\/4 · 1 failed · saved \d+(\.\d+)? [kM]B · ETA 0s/);
    expect(output).toMatch(/✗ truncated\.jpg: 422 Image cannot be decoded/);
    expect(output).toMatch(/total: 3 ok, 1 failed/);
    expect(output).toContain(`spent $0.${String(2 * prices.image).padStart(6, "0").replace(/0+$/, "")}`);

    expect(readdirSync(join(work, "out")).sort()).toEqual(["landscape-1.webp", "portrait-6.webp", "rgb.webp"]);
    for (const name of ["landscape-1", "portrait-6"]) {
      const meta = await sharp(join(work, "out", `${name}.webp`)).metadata();
      expect([meta.format, meta.width], name).toEqual(["webp", 160]);
    }
    // Never enlarged: the 32 px PNG keeps its size.
    const png = await sharp(join(work, "out", "rgb.webp")).metadata();
    expect([png.format, png.width]).toEqual(["webp", (await sharp(join(work, "src", "rgb.png")).metadata()).width]);
    // EXIF orientation 6 is a quarter turn: the portrait comes out taller than wide.
    const portrait = await sharp(join(work, "out", "portrait-6.webp")).metadata();
    expect(portrait.height).toBeGreaterThan(portrait.width);
  });
});

describe("pixelpress optimize in a pipe", () => {
  it("prints one plain line per item and no cursor control", async () => {
    const { code, output } = await runPiped(["optimize", "src/landscape-1.jpg", "--width", "120", "--format", "jpeg", "--out", "piped"], work);
    expect(code, output).toBe(0);
    expect(output).not.toContain("\r");
    expect(output).not.toContain("\x1b");
    // Sizes as contracts/byte-size.ts writes them everywhere: decimal kB.
    const sourceSize = formatByteSize(readFileSync(join(work, "src", "landscape-1.jpg")).byteLength).replace(".", "\\.");
    expect(output).toMatch(new RegExp(`^\\[1/1\\] ok landscape-1\\.jpg: ${sourceSize} → [\\d.]+ kB piped/landscape-1\\.jpg$`, "m"));
    expect((await sharp(join(work, "piped", "landscape-1.jpg")).metadata()).width).toBe(120);
  });

  it("never overwrites a source file without --overwrite", async () => {
    const source = join(work, "src", "mine.jpg");
    copyFileSync(join(work, "src", "landscape-1.jpg"), source);
    chmodSync(source, 0o644);
    const before = readFileSync(source);
    const refused = await runPiped(["optimize", "src/mine.jpg", "--width", "90", "--format", "jpeg"], work);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("src/mine.jpg is a source file; pass --overwrite to replace it");
    expect(readFileSync(source).equals(before)).toBe(true);

    const allowed = await runPiped(["optimize", "src/mine.jpg", "--width", "90", "--format", "jpeg", "--overwrite"], work);
    expect(allowed.code, allowed.output).toBe(0);
    expect((await sharp(source).metadata()).width).toBe(90);
  });

  it("refuses to start without a key, saying where to put it", async () => {
    const { code, output } = await run(process.execPath, [CLI, "optimize", "src/landscape-1.jpg"], work, { API_KEY: "" });
    expect(code).toBe(1);
    expect(output).toContain("set API_KEY or pass --api-key");
  });
});

describe("pixelpress xlsx and pdf", () => {
  it("builds a workbook from a request file", async () => {
    const request = { filename: "cli-book.xlsx", sheets: [{ name: "Totals", columns: [{ key: "n", header: "N", type: "number" }], rows: [[4], [2]] }] };
    writeFileSync(join(work, "book.json"), JSON.stringify(request));
    const { code, output } = await runPiped(["xlsx", "book.json"], work);
    expect(code, output).toBe(0);
    // Two data rows plus the header row; one column.
    expect(output).toMatch(/cli-book\.xlsx\s+1\s+3\s+3\s+/);
    const sheet = XLSX.read(readFileSync(join(work, "cli-book.xlsx"))).Sheets.Totals!;
    expect(XLSX.utils.sheet_to_json(sheet)).toEqual([{ N: 4 }, { N: 2 }]);
  });

  it("analyzes a PDF into a table of images with DPI and quality, and a projection per profile", async () => {
    const { code, output } = await runPiped(["pdf", "analyze", join(work, "photo.pdf")], work);
    expect(code, output).toBe(0);
    expect(output).toMatch(/effective_dpi\s+estimated_jpeg_quality/);
    // An image row: its colorspace by family, and the JPEG quality as a number with the encoder whose tables fitted.
    expect(output).toMatch(/DeviceRGB\s+DCTDecode\s+\d+\s+[\d.]+\s+\d+ \((ijg|mozjpeg)\)/);
    for (const profile of ["screen", "email", "ebook", "print", "prepress"]) expect(output).toMatch(new RegExp(`^${profile}\\s+\\d+`, "m"));
  });

  it("compresses a PDF with a profile and writes the smaller file", async () => {
    const { code, output } = await runPiped(["pdf", "compress", join(work, "photo.pdf"), "--profile", "ebook", "--out", "small.pdf"], work);
    expect(code, output).toBe(0);
    const written = readFileSync(join(work, "small.pdf"));
    expect(written.subarray(0, 5).toString()).toBe("%PDF-");
    expect(written.byteLength).toBeLessThan(readFileSync(join(work, "photo.pdf")).byteLength);
    expect(output).toMatch(/small\.pdf\s+ebook/);
  });

  it("through npm run cli, reads paths from where it was typed and writes outputs beside their inputs", async () => {
    const repository = resolve(".");
    mkdirSync(join(work, "reports"), { recursive: true });
    copyFileSync(join(work, "photo.pdf"), join(work, "reports", "q3.pdf"));
    const request = { filename: "q3.xlsx", sheets: [{ name: "Q3", columns: [{ key: "n", header: "N", type: "number" }], rows: [[1]] }] };
    writeFileSync(join(work, "reports", "q3.json"), JSON.stringify(request));
    const npmRun = (args: string[]) => run("npm", ["--prefix", repository, "run", "--silent", "cli", "--", ...args], work);

    const compressed = await npmRun(["pdf", "compress", "reports/q3.pdf", "--profile", "screen"]);
    expect(compressed.code, compressed.output).toBe(0);
    expect(readFileSync(join(work, "reports", "q3.compressed.pdf")).subarray(0, 5).toString()).toBe("%PDF-");
    const workbook = await npmRun(["xlsx", "reports/q3.json"]);
    expect(workbook.code, workbook.output).toBe(0);
    expect(XLSX.utils.sheet_to_json(XLSX.read(readFileSync(join(work, "reports", "q3.xlsx"))).Sheets.Q3!)).toEqual([{ N: 1 }]);
    expect(readdirSync(repository).filter((name) => name.startsWith("q3."))).toEqual([]);
  });

  it("says so, without calling it, when the service does not offer the PDF endpoints", async () => {
    const olderService = await startLoopbackServer({ "/openapi.json": new TextEncoder().encode(JSON.stringify({ openapi: "3.1.0", paths: { "/v1/account": {} } })) });
    try {
      const { code, output } = await run(process.execPath, [CLI, "pdf", "compress", join(work, "photo.pdf")], work, { API_URL: olderService.url });
      expect(code).toBe(1);
      expect(output).toContain(`This service does not offer POST /v1/pdf/compress yet (it is not in ${olderService.url}/openapi.json)`);
      expect(olderService.received).toEqual([]);
    } finally {
      await olderService.close();
    }
  });
});
