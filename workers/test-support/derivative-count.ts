import { derivativesOfFiles } from "../derivatives/derivative-store.ts";
import type { Bindings } from "../env.ts";

/** How many derivatives the account's shard keeps of the source (those drawn with it as an overlay not counted). */
export async function derivativeCount(env: Pick<Bindings, "DB" | "FILES" | "ACCOUNT_SHARDS">, accountId: string, fileId: string): Promise<number> {
  return (await derivativesOfFiles(env, accountId, [fileId])).filter((derivative) => derivative.fileId === fileId).length;
}
