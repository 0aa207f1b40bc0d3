// `npm start`: applies D1 migrations locally, makes sure the development account and key exist,
// then runs the origins (Node, --origins of them) and the edge (wrangler dev, local D1/R2/Queues)
// until Ctrl-C. The edge finds its origins through a directory served here from
// <persist-to>/origins.txt: an origin started by hand joins the pool when its URL is added there.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ORIGIN_ALLOCATOR_ENV } from "../origin/allocator-env.ts";
import { applyLocalMigrations } from "./lib/apply-migrations.ts";
import { ensureDevAccount } from "./lib/dev-account.ts";
import { ensureDevSecrets } from "./lib/dev-vars.ts";
import { openPlatform } from "./lib/local-platform.ts";
import { listedOrigins, serveOriginDirectory } from "./lib/origin-directory.ts";
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
const externalOrigins = args["origin-url"];
const originPorts = externalOrigins ? [] : Array.from({ length: Number(args.origins) }, (_, i) => String(Number(args["origin-port"]) + i));
const originUrls = externalOrigins ? listedOrigins(externalOrigins.replaceAll(",", "\n")) : originPorts.map((port) => `http://127.0.0.1:${port}`);
const wrangler = "node_modules/.bin/wrangler";

const secrets = ensureDevSecrets();

console.log(applyLocalMigrations(wrangler, persistTo));

const platform = await openPlatform({ persistTo });
const credentials = await ensureDevAccount(platform.env.DB, persistTo);
await platform.dispose();

const originsFile = join(persistTo, "origins.txt");
writeFileSync(originsFile, `# The origins the edge spreads calls over, one URL a line; edit while it runs.\n${originUrls.join("\n")}\n`);
const directory = await serveOriginDirectory(originsFile);

const origins = originPorts.map((port, i) =>
  startService(originPorts.length > 1 ? `origin-${i}` : "origin", process.execPath, ["origin/server.ts"], {
    ...process.env,
    ...ORIGIN_ALLOCATOR_ENV,
    ENVIRONMENT: "development",
    PORT: port,
    ORIGIN_SECRET: secrets.ORIGIN_SECRET,
  }),
);
const edgeVars = [
  "ENVIRONMENT:development",
  `ORIGIN_URL:${originUrls.join(",")}`,
  `ORIGIN_DIRECTORY_URL:${directory.url}`,
  `PUBLIC_BASE_URL:${edgeUrl}`,
  ...(args["allow-loopback-urls"] ? ["ALLOW_LOOPBACK_URLS:true"] : []),
  ...(args["shards-per-account"] ? [`FILE_SHARDS_PER_ACCOUNT:${args["shards-per-account"]}`] : []),
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
const services = [...origins, edge];

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  await Promise.all(services.map(stopService));
  await directory.close();
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
// The edge serves on while any origin is left: the pool routes around one that died.
for (const service of services) {
  service.child.once("exit", (code) => {
    if (stopping) return;
    const left = origins.filter((origin) => origin.child.exitCode === null && origin.child.signalCode === null);
    if (service !== edge && left.length > 0) {
      console.error(`${service.name} exited (${code}); the edge goes on with ${left.map((origin) => origin.name).join(", ")}.`);
      return;
    }
    console.error(`${service.name} exited (${code}); stopping.`);
    void stop(1);
  });
}

try {
  await Promise.all(originUrls.map((url) => waitForHttp(`${url}/healthz`, 30_000, services)));
  await waitForHttp(`${edgeUrl}/healthz`, 120_000, services);
} catch (error) {
  console.error(String(error));
  await stop(1);
}

console.log(`
  PixelPress is running
    edge    ${edgeUrl}
    origin  ${originUrls.join("\n            ")}
    account ${credentials.account_id}
    key_id  ${credentials.key_id}
    API key ${credentials.secret}

  curl -H "Authorization: Bearer ${credentials.secret}" ${edgeUrl}/v1/account

  More origins: start one (PORT=… ENVIRONMENT=development node origin/server.ts, with
  .dev.vars' ORIGIN_SECRET) and add its URL to ${originsFile}.
  Ctrl-C stops them all.
`);
