// Runs one command against a fresh edge + origin pair started exactly as `npm start` starts it,
// then stops the pair: `node scripts/with-service-pair.ts -- <command> [args...]`. The command
// runs in the caller's directory with PIXELPRESS_BASE_URL, PIXELPRESS_API_KEY and
// PIXELPRESS_KEY_ID set, and its exit code is this script's. CI uses it to run the installed
// packages with plain `node` against the real service (scripts/check-packages.sh).
import { spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startServicePair } from "../test/support/service-pair.ts";

const separator = process.argv.indexOf("--");
const [command, ...args] = separator < 0 ? [] : process.argv.slice(separator + 1);
if (command === undefined) {
  console.error("usage: node scripts/with-service-pair.ts -- <command> [args...]");
  process.exit(2);
}

const callerDir = process.cwd();
// The pair is started from the repository root, where scripts/dev.ts and its state live.
process.chdir(resolve(dirname(fileURLToPath(import.meta.url)), ".."));
const pair = await startServicePair();
let code: number;
try {
  code = await new Promise<number>((done, fail) => {
    const child = spawn(command, args, {
      cwd: callerDir,
      stdio: "inherit",
      env: { ...process.env, PIXELPRESS_BASE_URL: pair.edgeUrl, PIXELPRESS_API_KEY: pair.apiKey, PIXELPRESS_KEY_ID: pair.keyId },
    });
    child.once("error", fail);
    child.once("exit", (exitCode, signal) => done(exitCode ?? (signal ? 128 : 1)));
  });
} finally {
  await pair.stop();
}
process.exit(code);
