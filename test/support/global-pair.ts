import type { TestProject } from "vitest/node";
import { startServicePair } from "./service-pair.ts";

declare module "vitest" {
  export interface ProvidedContext {
    edgeUrl: string;
    originUrl: string;
    apiKey: string;
    accountId: string;
    persistTo: string;
    startLog: string;
  }
}

/** One running edge + origin pair for the whole end-to-end project. */
export default async function setup(project: TestProject) {
  const pair = await startServicePair();
  project.provide("edgeUrl", pair.edgeUrl);
  project.provide("originUrl", pair.originUrl);
  project.provide("apiKey", pair.apiKey);
  project.provide("accountId", pair.accountId);
  project.provide("persistTo", pair.persistTo);
  project.provide("startLog", pair.startLog);
  return () => pair.stop();
}
