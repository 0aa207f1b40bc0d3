// What the transform route's tests share: a stored source, the URL that asks for a derivative of
// it, the Accept header a current browser sends, and what the ledger charged for transforms.
import { env } from "cloudflare:test";
import { storeFile } from "../files/file-store.ts";
import type { TestCaller } from "./api.ts";
import { ledgerOf } from "./account-books.ts";

export const CHROME_ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

/** Stores `body` as the caller's source file for an hour; its file id. */
export async function seedSource(caller: TestCaller, body: Uint8Array, contentType: string): Promise<string> {
  const record = await storeFile(env, { accountId: caller.accountId, kind: "source", body, size: body.byteLength, contentType, expiresAt: Date.now() + 3_600_000 });
  return record.id;
}

export const transformUrl = (caller: TestCaller, transform: string, fileId: string) => `/v1/image/t/${caller.keyId}/${transform}/${fileId}`;

/** How many transforms the ledger charged the account, and for how much in all. */
export async function transformCharges(accountId: string): Promise<{ n: number; micros: number }> {
  const rows = await ledgerOf(accountId, (row) => row.operation === "image.transform");
  return { n: rows.length, micros: rows.reduce((sum, row) => sum + row.amountMicros, 0) };
}
