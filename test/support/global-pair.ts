import { createServer } from "node:net";
import type { TestProject } from "vitest/node";
import { startServicePair } from "./service-pair.ts";

declare module "vitest" {
  export interface ProvidedContext {
    edgeUrl: string;
    originUrl: string;
    apiKey: string;
    accountId: string;
    persistTo: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** One running edge + origin pair for the whole end-to-end project, on ports free right now. */
export default async function setup(project: TestProject) {
  const pair = await startServicePair({ edge: await freePort(), origin: await freePort() });
  project.provide("edgeUrl", pair.edgeUrl);
  project.provide("originUrl", pair.originUrl);
  project.provide("apiKey", pair.apiKey);
  project.provide("accountId", pair.accountId);
  project.provide("persistTo", pair.persistTo);
  return () => pair.stop();
}
