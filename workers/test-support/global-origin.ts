import { serve } from "@hono/node-server";
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { resolve, sep } from "node:path";
import type { TestProject } from "vitest/node";

// The edge tests run inside workerd; their origin is the real Node origin (origin/server.ts as a
// child process, exactly as it runs in production) on an ephemeral loopback port that
// vitest.config.ts hands to the worker. Beside it, the shared corpus is served read-only from the
// runner's process, since workerd cannot read the host's files.
export const TEST_ORIGIN_SECRET = "test-origin-secret";

declare module "vitest" {
  export interface ProvidedContext {
    testOriginUrl: string;
    testCorpusUrl: string;
  }
}

const CORPUS_ROOT = resolve("../shared/corpus");

async function corpusFile(request: Request): Promise<Response> {
  const path = resolve(CORPUS_ROOT, decodeURIComponent(new URL(request.url).pathname).replace(/^\/+/, ""));
  if (!path.startsWith(CORPUS_ROOT + sep)) return new Response("outside the corpus", { status: 403 });
  try {
    return new Response(new Uint8Array(await readFile(path)));
  } catch {
    return new Response("not found", { status: 404 });
  }
}

function listen(fetch: (request: Request) => Response | Promise<Response>) {
  const server = serve({ fetch, port: 0, hostname: "127.0.0.1" });
  return new Promise<{ server: typeof server; url: string }>((done) =>
    server.once("listening", () => done({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

function startOrigin() {
  const child = spawn(process.execPath, ["origin/server.ts"], {
    env: { ...process.env, PORT: "0", ORIGIN_SECRET: TEST_ORIGIN_SECRET, ENVIRONMENT: "development" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`test origin exited with ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
  });
  return { child, url };
}

export default async function setup(project: TestProject) {
  const origin = startOrigin();
  const [originUrl, corpus] = await Promise.all([origin.url, listen(corpusFile)]);
  project.provide("testOriginUrl", originUrl);
  project.provide("testCorpusUrl", corpus.url);
  return async () => {
    origin.child.removeAllListeners("exit");
    origin.child.kill("SIGTERM");
    await new Promise<void>((done) => corpus.server.close(() => done()));
  };
}
