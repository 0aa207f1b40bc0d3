import { getPlatformProxy } from "wrangler";
import type { Bindings } from "../../workers/env.ts";

export const DEFAULT_PERSIST_DIR = ".wrangler/state";

/**
 * The same local D1/R2 that `wrangler dev --persist-to DIR` uses, opened from Node so that the
 * admin CLI and `npm start` write through the edge's own stores. `remote` reaches the deployed
 * bindings instead (needs `wrangler login` and the real database_id in wrangler.toml).
 */
export async function openPlatform(options: { persistTo?: string; remote?: boolean } = {}) {
  // Keep stdout for the command's own JSON output.
  process.env.WRANGLER_LOG ??= "error";
  const persistTo = options.persistTo ?? DEFAULT_PERSIST_DIR;
  const proxy = await getPlatformProxy<Bindings>({
    configPath: "wrangler.toml",
    persist: options.remote ? false : { path: `${persistTo}/v3` },
    remoteBindings: options.remote ?? false,
  });
  return { env: proxy.env, dispose: proxy.dispose };
}
