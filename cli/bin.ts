#!/usr/bin/env node
// The `pixelpress` command: `npx pixelpress` runs this file's build (packages/cli), `npm run cli`
// its source. A file of its own rather than an `import.meta.main` check, which Node 20 lacks.
import { describeFailure, main } from "./main.ts";

// `npm run cli` runs this in the repository; paths on its command line are the user's, relative
// to where they typed it, which npm passes as INIT_CWD. Only for that script: INIT_CWD is
// inherited by every process an npm script starts.
if (process.env.npm_lifecycle_event === "cli" && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`pixelpress: ${describeFailure(error)}\n`);
  process.exitCode = 1;
}
