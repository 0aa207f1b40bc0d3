// The idempotency records the API gate keeps, in each account's own shard
// (workers/shards/account-shard.ts, its statements in shard-idempotency-records.ts), with a stored
// response too large for its row kept in R2 beside it.
import { sha256Hex } from "../../contracts/crypto/sha256.ts";
import type { Bindings } from "../env.ts";
import { accountShard } from "../shards/shard-stub.ts";

type IdempotencyEnv = Pick<Bindings, "ACCOUNT_SHARDS" | "FILES">;

// A shard's rows are best kept small; larger stored responses (base64 outputs) live in R2.
const INLINE_BODY_LIMIT = 512 * 1024;
const R2_BODY_MARKER = "r2:";

export interface IdempotencyScope {
  accountId: string;
  keyId: string;
  idempotencyKey: string;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Existing =
  | { state: "running"; fingerprint: string }
  | { state: "done"; fingerprint: string; response: StoredResponse };

export function requestFingerprint(method: string, path: string, body: string): Promise<string> {
  return sha256Hex(`${method} ${path}\n${body}`);
}

const nameOf = (scope: IdempotencyScope) => ({ keyId: scope.keyId, idempotencyKey: scope.idempotencyKey });

/** Where a stored response too large for its row is kept. */
export async function bodyObjectKey(scope: IdempotencyScope): Promise<string> {
  return `idempotency/${scope.accountId}/${await sha256Hex(`${scope.keyId}\n${scope.idempotencyKey}`)}`;
}

/** Inserts a running record; false when a live record already holds the key. */
export function claim(env: IdempotencyEnv, scope: IdempotencyScope, fingerprint: string, now: number): Promise<boolean> {
  return accountShard(env, scope.accountId).claimIdempotencyKey(scope.accountId, nameOf(scope), fingerprint, now);
}

export async function loadExisting(env: IdempotencyEnv, scope: IdempotencyScope): Promise<Existing | null> {
  const row = await accountShard(env, scope.accountId).idempotencyRecord(scope.accountId, nameOf(scope));
  if (!row) return null;
  if (row.state === "running") return { state: "running", fingerprint: row.fingerprint };
  let body = row.responseBody ?? "";
  if (body.startsWith(R2_BODY_MARKER)) {
    const object = await env.FILES.get(body.slice(R2_BODY_MARKER.length));
    body = object ? await object.text() : "";
  }
  return { state: "done", fingerprint: row.fingerprint, response: { status: row.responseStatus ?? 200, headers: row.responseHeaders ?? {}, body } };
}

export async function complete(env: IdempotencyEnv, scope: IdempotencyScope, response: StoredResponse): Promise<void> {
  let stored = response.body;
  if (stored.length > INLINE_BODY_LIMIT) {
    const key = await bodyObjectKey(scope);
    await env.FILES.put(key, stored);
    stored = R2_BODY_MARKER + key;
  }
  await accountShard(env, scope.accountId).completeIdempotencyKey(nameOf(scope), { ...response, body: stored });
}

/** Forgets a claim whose request failed on our side, so the client's retry runs it again. */
export async function release(env: IdempotencyEnv, scope: IdempotencyScope): Promise<void> {
  await accountShard(env, scope.accountId).releaseIdempotencyKey(nameOf(scope));
}
