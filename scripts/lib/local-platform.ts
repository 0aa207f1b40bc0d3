import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { getPlatformProxy, unstable_readConfig } from "wrangler";
import { z } from "zod";
import type { Bindings } from "../../workers/env.ts";

export const DEFAULT_PERSIST_DIR = ".wrangler/state";

const storesConfigSchema = z.object({
  name: z.string().optional(),
  compatibility_date: z.string().optional(),
  compatibility_flags: z.array(z.string()),
  d1_databases: z.array(z.looseObject({})),
  r2_buckets: z.array(z.looseObject({})),
});

/**
 * The stores of wrangler.toml the scripts write through, and nothing else. The platform proxy
 * runs a placeholder instead of the worker's code, so it cannot host the worker's own Durable
 * Object class (OriginContainer): given the whole configuration, workerd warns on every start
 * that the class is not exported.
 */
function writeStoresConfig(dir: string): string {
  // wrangler's Config type comes from a package it does not ship, so the fields are parsed.
  const stores = storesConfigSchema.parse(unstable_readConfig({ config: "wrangler.toml" }, { hideWarnings: true }));
  const path = join(dir, "wrangler.json");
  writeFileSync(path, JSON.stringify(stores));
  return path;
}

/**
 * The same local D1/R2 that `wrangler dev --persist-to DIR` uses, opened from Node so that the
 * admin CLI and `npm start` write through the edge's own stores. `remote` reaches the deployed
 * bindings instead (needs `wrangler login` and the real database_id in wrangler.toml).
 */
export async function openPlatform(options: { persistTo?: string; remote?: boolean } = {}) {
  // Keep stdout for the command's own JSON output.
  process.env.WRANGLER_LOG ??= "error";
  const persistTo = resolve(options.persistTo ?? DEFAULT_PERSIST_DIR);
  const configDir = mkdtempSync(join(tmpdir(), "pixelpress-platform-"));
  try {
    const proxy = await getPlatformProxy<Bindings>({
      configPath: writeStoresConfig(configDir),
      persist: options.remote ? false : { path: `${persistTo}/v3` },
      remoteBindings: options.remote ?? false,
    });
    return {
      env: proxy.env,
      /** wrangler's stand-in for the Cache API outside workerd (it keeps nothing), for code that purges the edge cache. */
      caches: proxy.caches,
      dispose: async () => {
        await proxy.dispose();
        rmSync(configDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(configDir, { recursive: true, force: true });
    throw error;
  }
}
