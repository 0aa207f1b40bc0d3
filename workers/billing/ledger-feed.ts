// The ledger feed: how the shared database's ledger report and fed balances follow the shards.
// A shard sends its new rows in messages of at most FEED_ROWS rows (workers/shards/account-shard.ts,
// at its alarm, a moment after a charge), and the queue consumer writes a whole batch of messages
// in two statements (./d1-ledger.ts). Delivery is at least once; the report's unique charge key and
// the balance's sequence number make a second delivery change nothing.
import { z } from "zod";
import { recordFed, type FedBalance, type FedRow } from "./d1-ledger.ts";
import type { ShardLedgerRow } from "./shard-ledger.ts";

export const LEDGER_FEED_QUEUE = "pixelpress-ledger";
/** Rows a message carries: about 150 bytes each, well under a queue message's 128 KB. */
export const FEED_ROWS = 400;

const ledgerFeedMessageSchema = z.object({
  account_id: z.string(),
  rows: z.array(
    z.object({
      charge_key: z.string(),
      operation: z.string(),
      amount_micros: z.number().int(),
      units: z.number().int(),
      created_at: z.number().int(),
    }),
  ),
  /** The balance after the message's last row, when that row was the ledger's newest. */
  balance: z.object({ balance_micros: z.number().int().nonnegative(), seq: z.number().int().positive() }).nullable(),
});

export type LedgerFeedMessage = z.infer<typeof ledgerFeedMessageSchema>;

export function ledgerFeedMessage(accountId: string, rows: ShardLedgerRow[], balance: { micros: number; seq: number } | null): LedgerFeedMessage {
  return {
    account_id: accountId,
    rows: rows.map((row) => ({ charge_key: row.chargeKey, operation: row.operation, amount_micros: row.amountMicros, units: row.units, created_at: row.createdAt })),
    balance: balance && { balance_micros: balance.micros, seq: balance.seq },
  };
}

/** Writes a batch of feed messages to the shared database; a message that does not parse is dropped, not retried forever. */
export async function consumeLedgerFeed(batch: MessageBatch<unknown>, db: D1Database): Promise<void> {
  const rows: FedRow[] = [];
  const newest = new Map<string, FedBalance>();
  for (const message of batch.messages) {
    const parsed = ledgerFeedMessageSchema.safeParse(message.body);
    if (!parsed.success) {
      console.error(`ledger feed: dropped a message that is not a feed message: ${parsed.error.message}`);
      continue;
    }
    const { account_id, balance } = parsed.data;
    for (const row of parsed.data.rows) rows.push({ account_id, ...row });
    if (balance && balance.seq > (newest.get(account_id)?.seq ?? 0)) newest.set(account_id, { account_id, ...balance });
  }
  await recordFed(db, rows, [...newest.values()]);
  batch.ackAll();
}
