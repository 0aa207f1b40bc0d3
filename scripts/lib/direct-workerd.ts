// The edge worker and a static reference Worker in ONE workerd process, each on its own socket
// straight into the worker, for benches that measure our code rather than the dev tooling.
//
// `wrangler dev` puts three things in front of a worker that production does not have: its
// ProxyWorker (a Durable Object in a second workerd that every request queues through and is then
// fetched again over HTTP), Miniflare's entry worker, and a per-request log line POSTed to the Node
// process. Measured on this machine (autocannon -d 5, a Worker returning 15 kB from memory, the same
// moment): through wrangler dev 37-46 req/s at -c 10 and p50 35-48 ms at -c 1; through Miniflare's
// entry 271-347 req/s, p99 11-22 ms; on a direct socket 606-778 req/s, p50 0 ms, p99 7-12 ms. A
// ratio against a static Worker behind wrangler dev is mostly the tooling's cost divided by itself.
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_readConfig } from "wrangler";
import { z } from "zod";
import { ensureDevSecrets } from "./dev-vars.ts";

export interface DirectWorkers {
  edgeUrl: string;
  staticUrl: string;
  stop(): Promise<void>;
}

/** The worker as `wrangler deploy` bundles it into `outDir`: one script and the codecs' WASM beside it. */
function bundleEdge(outDir: string) {
  execFileSync(resolve("node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--containers-rollout=none", "--outdir", outDir], {
    stdio: "ignore",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  const wasm = readdirSync(outDir).filter((name) => name.endsWith(".wasm"));
  return [{ type: "ESModule" as const, path: join(outDir, "index.js") }, ...wasm.map((name) => ({ type: "CompiledWasm" as const, path: join(outDir, name) }))];
}

function bindingMap<T extends { binding: string }>(entries: T[], idOf: (entry: T) => string | undefined): Record<string, string> {
  return Object.fromEntries(entries.map((entry) => [entry.binding, idOf(entry) ?? entry.binding]));
}

// The fields of wrangler's resolved config this uses; its declared type does not resolve in this
// program, so the config is parsed like any other value from outside.
const wranglerFields = z.object({
  name: z.string().optional(),
  vars: z.record(z.string(), z.unknown()),
  compatibility_date: z.string().optional(),
  compatibility_flags: z.array(z.string()),
  d1_databases: z.array(z.object({ binding: z.string(), database_id: z.string().optional() })),
  r2_buckets: z.array(z.object({ binding: z.string(), bucket_name: z.string().optional() })),
  queues: z.object({ producers: z.array(z.object({ binding: z.string(), queue: z.string() })).optional() }),
});

/**
 * Starts the bundled edge on a copy of `persistTo`'s D1 and R2 (a `wrangler dev --persist-to`
 * directory, left untouched) with `vars` over wrangler.toml's, beside `staticScript`, a module
 * Worker. Each gets a direct socket on a free port; the Cache API is this process's own, empty.
 */
export async function startDirectWorkers(options: { persistTo: string; vars: Record<string, string>; staticScript: string; edgePort: number; staticPort: number }): Promise<DirectWorkers> {
  const dir = mkdtempSync(join(tmpdir(), "pixelpress-direct-"));
  try {
    const bundle = join(dir, "bundle");
    const modules = bundleEdge(bundle);
    cpSync(join(options.persistTo, "v3"), join(dir, "state", "v3"), { recursive: true });
    const config = wranglerFields.parse(unstable_readConfig({ config: "wrangler.toml" }, { hideWarnings: true }));
    const vars = Object.fromEntries(Object.entries(config.vars).map(([name, value]) => [name, String(value)]));
    const mf = new Miniflare(
      convertV4MiniflareOptions({
        host: "127.0.0.1",
        port: 0,
        resourcePersistencePath: join(dir, "state", "v3"),
        workers: [
          {
            name: config.name ?? "pixelpress-edge",
            modules,
            modulesRoot: bundle,
            compatibilityDate: config.compatibility_date,
            compatibilityFlags: config.compatibility_flags,
            bindings: { ...vars, ...ensureDevSecrets(), ...options.vars },
            d1Databases: bindingMap(config.d1_databases, (db) => db.database_id),
            r2Buckets: bindingMap(config.r2_buckets, (bucket) => bucket.bucket_name),
            queueProducers: bindingMap(config.queues.producers ?? [], (queue) => queue.queue),
            unsafeDirectSockets: [{ host: "127.0.0.1", port: options.edgePort }],
          },
          {
            name: "bench-static",
            modules: true,
            script: options.staticScript,
            compatibilityDate: config.compatibility_date,
            unsafeDirectSockets: [{ host: "127.0.0.1", port: options.staticPort }],
          },
        ],
      }),
    );
    await mf.ready;
    return {
      edgeUrl: `http://127.0.0.1:${options.edgePort}`,
      staticUrl: `http://127.0.0.1:${options.staticPort}/`,
      stop: async () => {
        await mf.dispose();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
