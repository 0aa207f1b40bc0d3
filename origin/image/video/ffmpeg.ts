// Debian's ffmpeg (package ffmpeg, which the origin's image and CI install), run as a child process
// per video (worker-pool/tool-process.ts: no shell, bounded messages, killed at the call's
// deadline), its input and output files in a temporary folder removed after (its APNG reader
// seeks, so the input cannot be a pipe). PIXELPRESS_FFMPEG names another binary; when none runs,
// the call is 501 `encoder_unavailable` naming the tool.
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { processingTimeout } from "../../worker-pool/job-ticket.ts";
import { currentDeadline } from "../../worker-pool/deadline.ts";
import { runToolProcess } from "../../worker-pool/tool-process.ts";

const TOOL = "ffmpeg";
// Outside a call with a deadline (tests, benches) an encode still ends.
const UNBOUNDED_CALL_MS = 120_000;

/** The ffmpeg binary: PIXELPRESS_FFMPEG when set (a path or a name on PATH), else `ffmpeg` on PATH. */
export function ffmpegCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env["PIXELPRESS_FFMPEG"] || TOOL;
}

function encoderUnavailable(command: string): ProblemError {
  return new ProblemError("encoder_unavailable", `Videos are encoded by ffmpeg, which this origin cannot run (${command}: not found). Install the Debian package ffmpeg, or ask for an image format.`, {
    extensions: { tool: TOOL },
  });
}

export interface FfmpegRun {
  /** ffmpeg's arguments, `-i` and its input file excepted, before the output file. */
  args: (input: string) => string[];
  /** The output file's extension, which tells ffmpeg the container. */
  extension: string;
  /** Writes ffmpeg's input file, chunk by chunk. */
  feed: (write: (chunk: Buffer) => Promise<void>) => Promise<void>;
  /** Names the work in a timeout's message. */
  what: string;
}

/** Runs ffmpeg over what `feed` writes and returns the file it wrote. */
export async function runFfmpeg(run: FfmpegRun): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), "pixelpress-video-"));
  try {
    const input = join(dir, "in");
    const output = join(dir, `out.${run.extension}`);
    const file = await open(input, "w");
    try {
      await run.feed(async (chunk) => void (await file.write(chunk)));
    } finally {
      await file.close();
    }
    await spawnFfmpeg(ffmpegCommand(), [...run.args(input), output], run.what);
    return new Uint8Array(await readFile(output));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function spawnFfmpeg(command: string, args: string[], what: string): Promise<void> {
  const deadlineAt = currentDeadline();
  const timeoutMs = deadlineAt === undefined ? UNBOUNDED_CALL_MS : deadlineAt - Date.now();
  const exit = await runToolProcess(command, ["-hide_banner", "-loglevel", "error", "-nostdin", ...args], timeoutMs).catch((error: NodeJS.ErrnoException) => {
    // A binary that is not there (or cannot run) is the tool missing, not a failed encode.
    throw error.code === "ENOENT" || error.code === "EACCES" ? encoderUnavailable(command) : error;
  });
  if (exit.timedOut) throw processingTimeout(what);
  if (exit.code !== 0) throw new Error(`ffmpeg exited with ${exit.code}: ${exit.message.trim()}`);
}
