import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

const DEV_VARS = ".dev.vars";

/** Local secrets, made once per checkout (gitignored), read by wrangler dev and the origin alike. */
export function ensureDevSecrets(): Record<string, string> {
  const vars: Record<string, string> = {};
  if (existsSync(DEV_VARS)) {
    for (const line of readFileSync(DEV_VARS, "utf8").split("\n")) {
      const match = /^\s*([A-Z0-9_]+)\s*=\s*"?([^"]*)"?\s*$/.exec(line);
      if (match) vars[match[1]!] = match[2]!;
    }
  }
  let changed = false;
  for (const name of ["ORIGIN_SECRET", "SIGNING_SECRET"]) {
    if (!vars[name]) {
      vars[name] = randomBytes(32).toString("base64url");
      changed = true;
    }
  }
  if (changed) {
    writeFileSync(DEV_VARS, Object.entries(vars).map(([k, v]) => `${k}="${v}"`).join("\n") + "\n", { mode: 0o600 });
  }
  return vars;
}
