// HEIC through Debian's native libheif and libde265 (package libheif-examples), run as its
// `heif-convert` tool: a child process per image, so the deadline can stop it (SIGKILL) and a
// decoder crash costs one request, not the origin. A phone's picture (8-bit 4:2:0, no alpha)
// comes back as YCbCr planes (y4m) converted to RGB here: the tool's own PNG writer spends four
// times the decode in zlib. Anything else (alpha, 10-bit, 4:4:4) comes back as the tool's PNG.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { processingTimeout } from "../../worker-pool/job-ticket.ts";
import { checkDeadline, secondsLeft } from "../../worker-pool/deadline.ts";
import { runToolProcess } from "../../worker-pool/tool-process.ts";
import { heifIccProfile } from "./heif-colour-profile.ts";
import { heifLayout, withPrimaryOnly } from "./heif-layout.ts";
import { pngWithProfile } from "./png-with-profile.ts";
import { y4mFrame, ycbcrToRgb } from "./y4m-to-rgb.ts";

const TOOL = "heif-convert";
// Outside a call with a deadline (tests, the CLI's local run) a decode still ends.
const UNBOUNDED_CALL_SECONDS = 120;
// The largest output per pixel: a 16-bit RGBA PNG that did not compress, plus its headers.
const MAX_OUTPUT_BYTES_PER_PIXEL = 8.1;

/** Whether `heif-convert` runs on this machine (PATH as given). */
export function nativeHeifConvertPresent(env: NodeJS.ProcessEnv = process.env): boolean {
  const probe = spawnSync(TOOL, ["--help"], { env, stdio: "ignore", timeout: 10_000 });
  return probe.error === undefined;
}

function unreadable(message: string): ProblemError {
  return new ProblemError("image_unreadable", `The HEIC image cannot be decoded: ${message}.`);
}

async function runTool(input: string, output: string): Promise<void> {
  const seconds = secondsLeft() ?? UNBOUNDED_CALL_SECONDS;
  const exit = await runToolProcess(TOOL, ["--quiet", input, output], seconds * 1000).catch((error: unknown) => {
    throw unreadable(error instanceof Error ? error.message : String(error));
  });
  if (exit.timedOut) throw processingTimeout("The HEIC decode");
  if (exit.code !== 0) throw unreadable(exit.message.trim().split("\n").pop() || `${TOOL} exited with ${exit.code}`);
}

async function readBounded(path: string, maxBytes: number): Promise<Uint8Array> {
  const { size } = await stat(path).catch(() => {
    throw unreadable("the decoder wrote no picture");
  });
  if (size > maxBytes) throw unreadable(`the decoder wrote ${size} bytes for at most ${maxBytes}`);
  return new Uint8Array(await readFile(path));
}

export async function nativeHeicToPng(bytes: Uint8Array, maxPixels: number): Promise<Uint8Array> {
  const layout = heifLayout(bytes);
  if (layout.pixels === 0) throw new ProblemError("image_unreadable", "The HEIC file declares no image size.");
  // Refused from the container's declared size (the coded size, before any crop), before a pixel is decoded.
  if (layout.pixels > maxPixels) {
    throw new ProblemError("image_too_large", `The image declares ${layout.pixels} pixels; the limit is ${maxPixels} pixels.`, {
      extensions: { limit_pixels: maxPixels },
    });
  }
  checkDeadline("The HEIC decode");
  const planes = layout.phonePlanes && layout.matrix !== null;
  const dir = await mkdtemp(join(tmpdir(), "pixelpress-heic-"));
  try {
    const input = join(dir, "in.heic");
    const output = join(dir, planes ? "out.y4m" : "out.png");
    await writeFile(input, withPrimaryOnly(bytes));
    await runTool(input, output);
    const decoded = await readBounded(output, Math.ceil(layout.pixels * MAX_OUTPUT_BYTES_PER_PIXEL) + 65_536);
    // The tool's PNG carries the file's ICC profile itself.
    if (!planes) return decoded;
    const frame = y4mFrame(decoded);
    const rgb = new Uint8Array(frame.width * frame.height * 3);
    ycbcrToRgb(frame, layout.matrix!, rgb);
    // Stored, not deflated: a 12 MP picture's zlib pass would cost half its decode.
    return await pngWithProfile({ data: rgb, width: frame.width, height: frame.height, channels: 3 }, heifIccProfile(bytes), 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
