// `npm start`: applies D1 migrations locally, makes sure the development account and key exist,
// then runs the origin (Node) and the edge (wrangler dev, local D1/R2/Queues) until Ctrl-C.
import { ORIGIN_ALLOCATOR_ENV } from "../origin/allocator-env.ts";
import { applyLocalMigrations } from "./lib/apply-migrations.ts";
import { ensureDevAccount } from "./lib/dev-account.ts";
import { ensureDevSecrets } from "./lib/dev-vars.ts";
import { openPlatform } from "./lib/local-platform.ts";
import { startService, stopService, waitForHttp } from "./lib/processes.ts";
import { parseStartOptions, startUsage, type StartOptions } from "./lib/start-options.ts";

let args: StartOptions;
try {
  args = parseStartOptions(process.argv.slice(2));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n\n${startUsage()}`);
  process.exit(2);
}
if (args.help) {
  console.log(startUsage());
  process.exit(0);
}
const persistTo = args["persist-to"];
const edgeUrl = `http://127.0.0.1:${args.port}`;
const externalOrigin = args["origin-url"];
const originUrl = externalOrigin ?? `http://127.0.0.1:${args["origin-port"]}`;
const wrangler = "node_modules/.bin/wrangler";

const secrets = ensureDevSecrets();

console.log(applyLocalMigrations(wrangler, persistTo));

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
