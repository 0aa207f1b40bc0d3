import type { Scope } from "./auth/scopes.ts";
import type { Bindings } from "./env.ts";

export interface Caller {
  accountId: string;
  keyId: string;
  plan: "free" | "pro";
  scopes: Scope[] | null;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    caller: Caller;
  };
}
