import type { Scope } from "./auth/scopes.ts";
import type { Bindings } from "./env.ts";
import type { TransformRequest } from "./middleware/transform-access.ts";

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
    /** Set on the URL-transform route only, by its key-in-path authentication. */
    transform: TransformRequest;
  };
}
