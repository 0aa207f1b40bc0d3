// HEIC through Debian's native libheif and libde265 (package libheif-examples), run as its
// `heif-convert` tool: a child process per image, so the deadline can stop it (SIGKILL) and a
// decoder crash costs one request, not the origin. A phone's picture (8-bit 4:2:0, no alpha)
// comes back as YCbCr planes (y4m) converted to RGB here: the tool's own PNG writer spends four
// times the decode in zlib. A phone's grid of tiles goes to ffmpeg instead when it runs here
// (heic-grid.ts), a third less CPU and its tiles on several threads. Anything else (alpha, 10-bit,
// 4:4:4) comes back as the tool's PNG.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Size } from "../../../contracts/image-orientation.ts";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { processingTimeout } from "../../worker-pool/job-ticket.ts";
import { checkDeadline, secondsLeft } from "../../worker-pool/deadline.ts";
import { runToolProcess } from "../../worker-pool/tool-process.ts";
import { ffmpegCommand } from "../video/ffmpeg.ts";
import { gridPlan, type GridPlan } from "./heic-grid.ts";
import { heifIccProfile } from "./heif-colour-profile.ts";
import { heifLayout, withPrimaryOnly } from "./heif-layout.ts";
import { pngWithProfile } from "./png-with-profile.ts";
import { halfSizeCovers, type RasterTarget } from "./raster-target.ts";
import { halvedSize, y4mFrame, ycbcrToRgb, ycbcrToRgbHalved, type YcbcrFrame } from "./y4m-to-rgb.ts";

const TOOL = "heif-convert";
// Outside a call with a deadline (tests, the CLI's local run) a decode still ends.
const UNBOUNDED_CALL_SECONDS = 120;
// The largest output per pixel: a 16-bit RGBA PNG that did not compress, plus its headers.
const MAX_OUTPUT_BYTES_PER_PIXEL = 8.1;

const toolRuns = (command: string, env: NodeJS.ProcessEnv) => spawnSync(command, ["-h"], { env, stdio: "ignore", timeout: 10_000 }).error === undefined;

/** Whether `heif-convert` runs on this machine (PATH as given). */
export function nativeHeifConvertPresent(env: NodeJS.ProcessEnv = process.env): boolean {
  return toolRuns(TOOL, env);
}

/** The ffmpeg that decodes grids, or null to leave them to heif-convert. */
export interface HeicTools {
  ffmpeg: string | null;
}

let presentTools: HeicTools | undefined;
/** The tools on PATH, looked up once. */
export function heicTools(): HeicTools {
  presentTools ??= { ffmpeg: toolRuns(ffmpegCommand(), process.env) ? ffmpegCommand() : null };
  return presentTools;
}

function unreadable(message: string): ProblemError {
  return new ProblemError("image_unreadable", `The HEIC image cannot be decoded: ${message}.`);
}

async function runTool(command: string, args: string[]): Promise<void> {
  const seconds = secondsLeft() ?? UNBOUNDED_CALL_SECONDS;
  const exit = await runToolProcess(command, args, seconds * 1000).catch((error: unknown) => {
    throw unreadable(error instanceof Error ? error.message : String(error));
  });
  if (exit.timedOut) throw processingTimeout("The HEIC decode");
  if (exit.code !== 0) throw unreadable(exit.message.trim().split("\n").pop() || `${command} exited with ${exit.code}`);
}

async function readBounded(path: string, maxBytes: number): Promise<Uint8Array> {
  const { size } = await stat(path).catch(() => {
    throw unreadable("the decoder wrote no picture");
  });
  if (size > maxBytes) throw unreadable(`the decoder wrote ${size} bytes for at most ${maxBytes}`);
  return new Uint8Array(await readFile(path));
}

/** The grid's tiles through ffmpeg, placed by its tile filter: the whole tiled area's planes, read as the grid's picture. */
async function gridFrame(plan: GridPlan, ffmpeg: string, dir: string): Promise<YcbcrFrame> {
  const input = join(dir, "tiles.hevc");
  const output = join(dir, "grid.yuv");
  await writeFile(input, plan.stream);
  await runTool(ffmpeg, ["-v", "error", "-xerror", "-nostdin", "-f", "hevc", "-i", input, "-vf", `tile=${plan.columns}x${plan.rows}`, "-frames:v", "1", "-f", "rawvideo", "-y", output]);
  const [lumaStride, chromaStride] = [plan.columns * plan.tileWidth, (plan.columns * plan.tileWidth) / 2];
  const lumaSize = lumaStride * plan.rows * plan.tileHeight;
  const chromaSize = (chromaStride * plan.rows * plan.tileHeight) / 2;
  const planes = await readBounded(output, lumaSize + 2 * chromaSize);
  if (planes.byteLength !== lumaSize + 2 * chromaSize) throw unreadable(`ffmpeg wrote ${planes.byteLength} bytes of planes for ${lumaSize + 2 * chromaSize}`);
  return {
    width: plan.width,
    height: plan.height,
    luma: planes.subarray(0, lumaSize),
    lumaStride,
    cb: planes.subarray(lumaSize, lumaSize + chromaSize),
    cr: planes.subarray(lumaSize + chromaSize),
    chromaStride,
  };
}

function checkPixels(pixels: number, maxPixels: number): void {
  if (pixels === 0) throw new ProblemError("image_unreadable", "The HEIC file declares no image size.");
  // Refused from the container's declared size (the coded size, before any crop), before a pixel is decoded.
  if (pixels > maxPixels) {
    throw new ProblemError("image_too_large", `The image declares ${pixels} pixels; the limit is ${maxPixels} pixels.`, {
      extensions: { limit_pixels: maxPixels },
    });
  }
}

/** libheif's tool over the primary image, to `output` (its extension picks y4m or PNG). */
async function heifConvert(bytes: Uint8Array, declaredPixels: number, dir: string, output: string): Promise<Uint8Array> {
  const input = join(dir, "in.heic");
  await writeFile(input, withPrimaryOnly(bytes));
  await runTool(TOOL, ["--quiet", input, join(dir, output)]);
  return readBounded(join(dir, output), Math.ceil(declaredPixels * MAX_OUTPUT_BYTES_PER_PIXEL) + 65_536);
}

/** A HEIC's picture as the pipeline reads it. */
export interface DecodedHeic {
  png: Uint8Array;
  /** The picture's upright size when `png` holds it at half that size (halfSizeCovers); null when at its own. */
  halvedFrom: Size | null;
}

/**
 * `target`: the box the output fills, which may let the picture decode at half size.
 * `using` names the ffmpeg that decodes grids (null: heif-convert decodes everything); found on PATH unless given.
 */
export async function nativeHeicToPng(bytes: Uint8Array, maxPixels: number, target: RasterTarget = {}, using: HeicTools = heicTools()): Promise<DecodedHeic> {
  const layout = heifLayout(bytes);
  checkPixels(layout.pixels, maxPixels);
  const matrix = layout.phonePlanes ? layout.matrix : null;
  const grid = matrix && using.ffmpeg ? gridPlan(bytes) : null;
  // The tiles decode whole, the grid's crop after: their area is what memory holds.
  if (grid) checkPixels(grid.columns * grid.tileWidth * grid.rows * grid.tileHeight, maxPixels);
  checkDeadline("The HEIC decode");
  const dir = await mkdtemp(join(tmpdir(), "pixelpress-heic-"));
  try {
    // The tool's PNG carries the file's ICC profile itself.
    if (!matrix) return { png: await heifConvert(bytes, layout.pixels, dir, "out.png"), halvedFrom: null };
    const frame = grid ? await gridFrame(grid, using.ffmpeg!, dir) : y4mFrame(await heifConvert(bytes, layout.pixels, dir, "out.y4m"));
    // heif-convert applied the rotation itself; irot turns anticlockwise, sharp clockwise.
    const clockwise = grid ? (360 - 90 * grid.quarterTurns) % 360 : 0;
    const upright = clockwise % 180 === 0 ? { width: frame.width, height: frame.height } : { width: frame.height, height: frame.width };
    const halved = halfSizeCovers(target, upright);
    const size = halved ? halvedSize(frame) : frame;
    const rgb = new Uint8Array(size.width * size.height * 3);
    (halved ? ycbcrToRgbHalved : ycbcrToRgb)(frame, matrix, rgb);
    // Stored, not deflated: a 12 MP picture's zlib pass would cost half its decode.
    const png = await pngWithProfile({ data: rgb, width: size.width, height: size.height, channels: 3 }, heifIccProfile(bytes), 0, clockwise as 0 | 90 | 180 | 270);
    return { png, halvedFrom: halved ? upright : null };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
