import { serve } from "@hono/node-server";
import { spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { generatedFile, isGeneratedFileName } from "../../test/fixtures/generated-files.ts";
import { cloudflareApiStandIn } from "./cloudflare-api-standin.ts";
import { startHostileUpstream, type HostileUpstream } from "./hostile-upstream.ts";

// The edge tests run inside workerd; their origin is the real Node origin (origin/server.ts as a
// child process, exactly as it runs in production) on an ephemeral loopback port that
// vitest.config.ts hands to the worker. Beside it, the runner's process serves the generated test
// inputs (test/fixtures/) by name, since workerd cannot run sharp or mupdf or read the host's files,
// and a stand-in for Cloudflare's purge API (cloudflare-api-standin.ts).
export const TEST_ORIGIN_SECRET = "test-origin-secret";

declare module "vitest" {
  export interface ProvidedContext {
    testOriginUrl: string;
    testGeneratedFilesUrl: string;
    /** The same origin with every deadline shortened to about nothing: each call ends processing_timeout. */
    testDeadlineBoundOriginUrl: string;
    /** The Cloudflare API stand-in, up to and including `/client/v4`, as CF_API_BASE_URL names the real one. */
    testCloudflareApiUrl: string;
    /** Loopback hosts that fail in each way a source's host can (hostile-upstream.ts). */
    testHostileUpstream: HostileUpstream;
  }
}

async function generatedFileResponse(request: Request): Promise<Response> {
  const name = new URL(request.url).pathname.slice(1);
  if (!isGeneratedFileName(name)) return new Response(`no generated file ${name}`, { status: 404 });
  return new Response(await generatedFile(name));
}

function listen(fetch: (request: Request) => Response | Promise<Response>) {
  const server = serve({ fetch, port: 0, hostname: "127.0.0.1" });
  return new Promise<{ server: typeof server; url: string }>((done) =>
    server.once("listening", () => done({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

function startOrigin(extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["origin/server.ts"], {
    env: { ...process.env, PORT: "0", ORIGIN_SECRET: TEST_ORIGIN_SECRET, ENVIRONMENT: "development", ...extraEnv },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`test origin exited with ${code}`)));
    child.stdout.on("data", (chunk: Buffer) => {
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
  });
  return { child, url };
}

export default async function setup(project: TestProject) {
  const origin = startOrigin();
  const deadlineBound = startOrigin({ ORIGIN_DEADLINE_SCALE: "0.000001" });
  const [originUrl, deadlineBoundUrl, files, cloudflareApi, hostile] = await Promise.all([
    origin.url,
    deadlineBound.url,
    listen(generatedFileResponse),
    listen(cloudflareApiStandIn),
    startHostileUpstream(),
  ]);
  project.provide("testOriginUrl", originUrl);
  project.provide("testDeadlineBoundOriginUrl", deadlineBoundUrl);
  project.provide("testGeneratedFilesUrl", files.url);
  project.provide("testCloudflareApiUrl", `${cloudflareApi.url}/client/v4`);
  project.provide("testHostileUpstream", hostile.urls);
  return async () => {
    for (const { child } of [origin, deadlineBound]) {
      child.removeAllListeners("exit");
      child.kill("SIGTERM");
    }
    for (const { server } of [files, cloudflareApi]) await new Promise<void>((done) => server.close(() => done()));
    await hostile.close();
  };
}
