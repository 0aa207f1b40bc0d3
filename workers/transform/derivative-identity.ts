// Where workers/billing/charge-key.ts still reads the identity from; the identity itself lives in
// the derivative store's room (workers/derivatives/derivative-identity.ts).
export type { DerivativeIdentity } from "../derivatives/derivative-identity.ts";
