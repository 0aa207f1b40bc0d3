import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createPixelPress } from "../../clients/ts/index.ts";
import { animatedImage } from "../../test/fixtures/animated-images.ts";
import { problemBody } from "../../contracts/problems/catalogue.ts";
import { CliError } from "../cli-error.ts";
import type { Connection } from "../connection.ts";
import { imageOptions, optimizeCommand } from "./optimize.ts";

describe("imageOptions", () => {
  it("takes a --format the API offers, checked by the API's own schema", () => {
    expect(imageOptions({ format: "webp", width: "640" })).toEqual({ format: "webp", width: 640 });
    expect(imageOptions({ format: "source" })).toEqual({ format: "source" });
    expect(imageOptions({ format: "jpg" })).toEqual({ format: "jpeg" });
  });

  it("takes --quality as a number or an auto level, checked by the API's own schema", () => {
    expect(imageOptions({ quality: "60" })).toEqual({ quality: 60 });
    expect(imageOptions({ quality: "auto" })).toEqual({ quality: "auto" });
    expect(imageOptions({ quality: "auto:eco" })).toEqual({ quality: "auto:eco" });
    for (const bad of ["0", "101", "auto:bogus", "high", "7.5"]) {
      expect(() => imageOptions({ quality: bad })).toThrow(`--quality must be a whole number from 1 to 100 or one of auto, auto:low, auto:eco, auto:good, auto:best, not ${bad}`);
    }
  });

  it("refuses one it does not, naming the choices, before anything is sent", () => {
    expect(() => imageOptions({ format: "gif" })).toThrow(CliError);
    expect(() => imageOptions({ format: "gif" })).toThrow(/--format must be one of jpeg, webp, avif, png, auto, source, not gif/);
  });
});

describe("optimize's overwrite refusal", () => {
  // The service on the other side: records what is sent, answers as `reply` says.
  function fakeService(reply: (request: Request) => Response = () => Response.json({ type: "about:blank", title: "Payment Required", status: 402 }, { status: 402 })) {
    const sent: Request[] = [];
    const fetchImpl = ((input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      sent.push(request);
      return Promise.resolve(reply(request));
    }) as typeof fetch;
    const connection: Connection = { baseUrl: "http://pixelpress.test", client: createPixelPress({ apiKey: "ak_test", baseUrl: "http://pixelpress.test", fetch: fetchImpl, retry: { retries: 0 } }) };
    return { sent, connection };
  }

  async function workDir(files: Record<string, Uint8Array>) {
    const dir = await mkdtemp(join(tmpdir(), "pixelpress-cli-"));
    for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, name), bytes);
    return dir;
  }

  const image = (format: "jpeg" | "png" | "webp" | "avif" | "gif" | "tiff") =>
    sharp({ create: { width: 16, height: 12, channels: 3, background: { r: 200, g: 80, b: 40 } } })
      .toFormat(format)
      .toBuffer();

  const written = () => {
    let text = "";
    return { stream: { write: (chunk: string) => (text += chunk) }, text: () => text };
  };

  it("refuses before sending when the source's own format family would write over it", async () => {
    for (const [name, format] of [["photo.jpg", "jpeg"], ["logo.png", "png"], ["banner.webp", "webp"], ["hero.avif", "avif"]] as const) {
      const source = await image(format);
      const dir = await workDir({ [name]: source });
      const { sent, connection } = fakeService();
      const out = written();
      expect(await optimizeCommand(connection, [join(dir, name)], {}, out.stream)).toBe(1);
      expect(sent).toEqual([]);
      expect(out.text()).toContain(`${join(dir, name)} is a source file; pass --overwrite to replace it`);
      expect(await readFile(join(dir, name))).toEqual(source);
    }
  });

  it("knows a still GIF becomes PNG and an animated one WebP, and refuses only the overwrite", async () => {
    const dir = await workDir({
      "still.gif": await image("gif"),
      "still.png": await image("png"),
      "moving.gif": await animatedImage("gif", { width: 8, height: 6, delay: [100, 100, 100] }),
    });
    const { sent, connection } = fakeService();
    const out = written();
    await optimizeCommand(connection, ["still.gif", "still.png", "moving.gif"].map((name) => join(dir, name)), {}, out.stream);
    expect(out.text()).toContain(`${join(dir, "still.png")} is a source file`);
    expect(sent).toHaveLength(1);
    expect(await sent[0]!.json()).toMatchObject({ source: { base64: (await readFile(join(dir, "moving.gif"))).toString("base64") } });
  });

  it("reads the family from the bytes, not the name, and sends when the output is a new file", async () => {
    const dir = await workDir({ "misnamed.png": await image("jpeg") });
    const { sent, connection } = fakeService();
    await optimizeCommand(connection, [join(dir, "misnamed.png")], {}, written().stream);
    expect(sent.map((request) => new URL(request.url).pathname)).toEqual(["/v1/image/optimize"]);
  });

  it("refuses before sending when a named --format would write over another source", async () => {
    const dir = await workDir({ "a.jpg": await image("jpeg"), "a.webp": await image("webp") });
    const { sent, connection } = fakeService();
    const out = written();
    expect(await optimizeCommand(connection, [join(dir, "a.jpg"), join(dir, "a.webp")], { format: "webp" }, out.stream)).toBe(1);
    expect(sent).toEqual([]);
    expect(out.text()).toContain(`${join(dir, "a.webp")} is a source file`);
  });

  it("checks after the reply when only the content decides the format (a TIFF)", async () => {
    const tiff = await image("tiff");
    const dir = await workDir({ "scan.tif": tiff, "scan.jpg": await image("jpeg") });
    const jpeg = await image("jpeg");
    const { sent, connection } = fakeService(() =>
      Response.json({ file_id: null, url: null, expires_at: null, base64: jpeg.toString("base64"), format: "jpeg", width: 16, height: 12, billing: { charged_micros: 120 } }),
    );
    const out = written();
    expect(await optimizeCommand(connection, [join(dir, "scan.tif"), join(dir, "scan.jpg")], { concurrency: "1" }, out.stream)).toBe(1);
    expect(sent.filter((request) => new URL(request.url).pathname === "/v1/image/optimize")).toHaveLength(1);
    expect(out.text()).toContain(`${join(dir, "scan.jpg")} is a source file`);
    expect(await readFile(join(dir, "scan.tif"))).toEqual(tiff);
  });

  it("names an output below its quality target in the summary", async () => {
    const dir = await workDir({ "sky.png": await image("png") });
    const jpeg = await image("jpeg");
    const stats = { score: 66.1, quality_level: "good", quality_target: 69, target_met: false };
    const { connection } = fakeService(() =>
      Response.json({ file_id: null, url: null, expires_at: null, base64: jpeg.toString("base64"), format: "jpeg", width: 16, height: 12, stats, billing: { charged_micros: 120 } }),
    );
    const out = written();
    expect(await optimizeCommand(connection, [join(dir, "sky.png")], { format: "jpeg", quality: "auto" }, out.stream)).toBe(0);
    expect(out.text()).toMatch(/sky\.png\s+below target/);
    expect(out.text()).toContain(`1 below their quality target:\n  ${join(dir, "sky.png")}: score 66.1 < target 69`);
  });
});

describe("optimize on a busy service", () => {
  // The service on loopback: answers /v1/image/optimize from `answers` in turn, recording each request's Idempotency-Key.
  async function standIn(answers: (() => { status: number; body: unknown })[]) {
    const keys: string[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        keys.push(String(req.headers["idempotency-key"]));
        const { status, body } = answers.shift()!();
        res.writeHead(status, { "Content-Type": status === 200 ? "application/json" : "application/problem+json" });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The client's own retries off, so each answer reaches the command.
    const connection: Connection = { baseUrl, client: createPixelPress({ apiKey: "ak_test", baseUrl, retry: { retries: 0 } }) };
    return { keys, connection, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  const deadline = () => ({ status: 422, body: problemBody("processing_timeout", "The image ran past its deadline and was stopped. Not charged.") });
  const busy = () => ({ status: 503, body: problemBody("origin_unavailable", "The compute origin is busy; retry later. Not charged.") });

  async function wallpaper() {
    const dir = await mkdtemp(join(tmpdir(), "pixelpress-cli-"));
    await writeFile(join(dir, "wall.png"), await sharp({ create: { width: 24, height: 16, channels: 3, background: "#3060a0" } }).png().toBuffer());
    return dir;
  }

  it.each([
    ["a deadline", deadline],
    ["a 503", busy],
  ])("sends again once after %s, as a new call, and writes the answer", async (_, first) => {
    const jpeg = await sharp({ create: { width: 24, height: 16, channels: 3, background: "#3060a0" } }).jpeg().toBuffer();
    const reply = { file_id: null, url: null, expires_at: null, base64: jpeg.toString("base64"), format: "jpeg", width: 24, height: 16, billing: { charged_micros: 120 } };
    const service = await standIn([first, () => ({ status: 200, body: reply })]);
    try {
      const dir = await wallpaper();
      const out = { text: "", write(chunk: string) { this.text += chunk; } };
      expect(await optimizeCommand(service.connection, [join(dir, "wall.png")], { format: "jpeg", out: join(dir, "out") }, out, 1)).toBe(0);
      expect(service.keys).toHaveLength(2);
      expect(service.keys[0]).not.toBe(service.keys[1]);
      const { info } = await sharp(await readFile(join(dir, "out", "wall.jpg"))).raw().toBuffer({ resolveWithObject: true });
      expect([info.format, info.width, info.height]).toEqual(["raw", 24, 16]);
    } finally {
      await service.close();
    }
  });

  it("says what to try when the second answer runs past its deadline too, and sends no third", async () => {
    const service = await standIn([deadline, deadline, deadline]);
    try {
      const dir = await wallpaper();
      const out = { text: "", write(chunk: string) { this.text += chunk; } };
      expect(await optimizeCommand(service.connection, [join(dir, "wall.png")], { format: "jpeg" }, out, 1)).toBe(1);
      expect(service.keys).toHaveLength(2);
      expect(out.text).toContain("Processing ran past its deadline");
      expect(out.text).toContain("--width");
      expect(out.text).toContain("--concurrency");
    } finally {
      await service.close();
    }
  });

  it("does not retry an answer a second try cannot change", async () => {
    const service = await standIn([() => ({ status: 402, body: problemBody("insufficient_balance", "Top up.") })]);
    try {
      const dir = await wallpaper();
      const out = { text: "", write(chunk: string) { this.text += chunk; } };
      expect(await optimizeCommand(service.connection, [join(dir, "wall.png")], { format: "jpeg" }, out, 1)).toBe(1);
      expect(service.keys).toHaveLength(1);
      expect(out.text).not.toContain("--concurrency");
    } finally {
      await service.close();
    }
  });
});
