// `npm start`: applies D1 migrations locally, makes sure the development account and key exist,
// then runs the origin (Node) and the edge (wrangler dev, local D1/R2/Queues) until Ctrl-C.
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { ORIGIN_ALLOCATOR_ENV } from "../origin/allocator-env.ts";
import { ensureDevAccount } from "./lib/dev-account.ts";
import { ensureDevSecrets } from "./lib/dev-vars.ts";
import { DEFAULT_PERSIST_DIR, openPlatform } from "./lib/local-platform.ts";
import { startService, stopService, waitForHttp } from "./lib/processes.ts";

const { values: args } = parseArgs({
  options: {
    port: { type: "string", default: "8787" },
    "origin-port": { type: "string", default: "8788" },
    "persist-to": { type: "string", default: DEFAULT_PERSIST_DIR },
    "allow-loopback-urls": { type: "boolean", default: false },
    // An origin someone else runs (bench:soak kills and restarts its own, behind a fault proxy):
    // the edge is pointed at it and no origin is started here.
    "origin-url": { type: "string" },
  },
});
const persistTo = args["persist-to"];
const edgeUrl = `http://127.0.0.1:${args.port}`;
const externalOrigin = args["origin-url"];
const originUrl = externalOrigin ?? `http://127.0.0.1:${args["origin-port"]}`;
const wrangler = "node_modules/.bin/wrangler";

const secrets = ensureDevSecrets();

execFileSync(wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], {
  stdio: ["ignore", "inherit", "inherit"],
  // wrangler.toml's local S3 credentials are an experimental field on purpose (see there): saying so
  // on every start tells the developer nothing about their own setup.
  env: { ...process.env, CI: "true", WRANGLER_DISABLE_EXPERIMENTAL_WARNING: "true" },
});

const platform = await openPlatform({ persistTo });
const credentials = await ensureDevAccount(platform.env.DB, persistTo);
await platform.dispose();

const origin = externalOrigin
  ? null
  : startService("origin", process.execPath, ["origin/server.ts"], {
      ...process.env,
      ...ORIGIN_ALLOCATOR_ENV,
      ENVIRONMENT: "development",
      PORT: args["origin-port"],
      ORIGIN_SECRET: secrets.ORIGIN_SECRET,
    });
const edgeVars = [
  "ENVIRONMENT:development",
  `ORIGIN_URL:${originUrl}`,
  `PUBLIC_BASE_URL:${edgeUrl}`,
  ...(args["allow-loopback-urls"] ? ["ALLOW_LOOPBACK_URLS:true"] : []),
];
const edge = startService(
  "edge",
  wrangler,
  [
    "dev",
    "--ip", "127.0.0.1",
    "--port", args.port,
    "--persist-to", persistTo,
    "--show-interactive-dev-session=false",
    "--inspector-port", "0",
    ...edgeVars.flatMap((v) => ["--var", v]),
  ],
  { ...process.env, WRANGLER_SEND_METRICS: "false" },
);
const services = origin ? [origin, edge] : [edge];

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  await Promise.all(services.map(stopService));
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
for (const service of services) {
  service.child.once("exit", (code) => {
    if (!stopping) {
      console.error(`${service.name} exited (${code}); stopping.`);
      void stop(1);
    }
  });
}

try {
  await waitForHttp(`${originUrl}/healthz`, 30_000, services);
  await waitForHttp(`${edgeUrl}/healthz`, 120_000, services);
} catch (error) {
  console.error(String(error));
  await stop(1);
}

console.log(`
  PixelPress is running
    edge    ${edgeUrl}
    origin  ${originUrl}
    account ${credentials.account_id}
    key_id  ${credentials.key_id}
    API key ${credentials.secret}

  curl -H "Authorization: Bearer ${credentials.secret}" ${edgeUrl}/v1/account

  Ctrl-C stops both.
`);
