import { z } from "zod";
import { createPixelPress, DEFAULT_BASE_URL } from "../clients/ts/index.ts";
import { CliError } from "./cli-error.ts";

export interface ConnectionFlags {
  "api-key"?: string;
  "api-url"?: string;
}

export interface Connection {
  baseUrl: string;
  client: ReturnType<typeof createPixelPress>;
}

export function connect(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): Connection {
  const apiKey = flags["api-key"] ?? env.API_KEY;
  if (!apiKey) throw new CliError("No API key: set API_KEY or pass --api-key ak_live_... (npm start prints a development key).");
  const baseUrl = (flags["api-url"] ?? env.API_URL ?? DEFAULT_BASE_URL).replace(/\/$/, "");
  return { baseUrl, client: createPixelPress({ apiKey, baseUrl }) };
}

// All a command needs of the service's OpenAPI document: which paths it lists.
const servedPathsSchema = z.object({ paths: z.record(z.string(), z.unknown()).optional() });

/**
 * Asks the service's own OpenAPI document whether it serves `path`, so a command for an endpoint
 * that is not deployed yet says so instead of failing with a 404.
 */
export async function requireEndpoint(baseUrl: string, path: string): Promise<void> {
  let spec: z.infer<typeof servedPathsSchema>;
  try {
    spec = servedPathsSchema.parse(await (await fetch(`${baseUrl}/openapi.json`)).json());
  } catch (error) {
    throw new CliError(`Cannot read ${baseUrl}/openapi.json: ${error instanceof Error ? error.message : String(error)}. Is the service running (npm start)?`);
  }
  if (!spec.paths?.[path]) throw new CliError(`This service does not offer POST ${path} yet (it is not in ${baseUrl}/openapi.json).`);
}
