// `npm start`'s flags, declared once: the parser and the --help text are both read from this table,
// so a flag cannot exist without its line in the help.
import { parseArgs } from "node:util";
import { MAX_FILE_SHARDS } from "../../workers/files/file-shard-index.ts";
import { DEFAULT_PERSIST_DIR } from "./local-platform.ts";

interface Flag {
  type: "string" | "boolean";
  default?: string | boolean;
  value?: string;
  help: string;
}

const flags = {
  port: { type: "string", default: "8787", value: "PORT", help: "the edge's port (wrangler dev, on 127.0.0.1)" },
  "origin-port": { type: "string", default: "8788", value: "PORT", help: "the first origin's port (Node, on 127.0.0.1); more origins take the ports after it" },
  origins: { type: "string", default: "1", value: "N", help: "how many origin processes to start; the edge spreads calls over them by load" },
  "persist-to": { type: "string", default: DEFAULT_PERSIST_DIR, value: "DIR", help: "where local D1, R2 and queue state is kept" },
  "allow-loopback-urls": {
    type: "boolean",
    default: false,
    help: "let source URLs, webhooks and remote origins point at 127.0.0.1 (local development only)",
  },
  "origin-url": { type: "string", value: "URL[,URL...]", help: "use origins that are already running instead of starting any" },
  "shards-per-account": {
    type: "string",
    value: "N",
    help: "how many shards each account's files, money and derivatives spread over (FILE_SHARDS_PER_ACCOUNT, 1 to 62; default wrangler.toml's)",
  },
  help: { type: "boolean", default: false, help: "print this and exit" },
} satisfies Record<string, Flag>;

export type StartOptions = ReturnType<typeof parseStartOptions>;

export function startUsage(): string {
  const lines = Object.entries(flags as Record<string, Flag>).map(([name, flag]) => {
    const spelled = `--${name}${flag.value ? ` ${flag.value}` : ""}`;
    const fallback = typeof flag.default === "string" ? ` (default ${flag.default})` : "";
    return `  ${spelled.padEnd(28)}${flag.help}${fallback}`;
  });
  return ["Usage: npm start -- [options]", "", "Starts the edge and the origin locally, with migrations applied and a development key.", "", ...lines, ""].join("\n");
}

/** Throws a TypeError naming the flag when an argument is not one of the flags above, or not a value it takes. */
export function parseStartOptions(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: flags, strict: true, allowPositionals: false });
  if (!/^[1-9]\d?$/.test(values.origins)) throw new TypeError(`--origins takes a whole number from 1 to 99, not ${JSON.stringify(values.origins)}`);
  const shards = values["shards-per-account"];
  if (shards !== undefined && !(/^[1-9]\d?$/.test(shards) && Number(shards) <= MAX_FILE_SHARDS)) {
    throw new TypeError(`--shards-per-account takes a whole number from 1 to ${MAX_FILE_SHARDS}, not ${JSON.stringify(shards)}`);
  }
  return values;
}
