// Every store takes a bounded amount a call (D1 and a shard's SQLite bind at most 100 parameters
// a statement and 2 MB a value, R2 deletes at most 1,000 keys, Cloudflare's purge 30 URLs): work
// on a list of any length goes in chunks of the size each limit leaves.

/** `items` in order, `size` at a time (the last chunk may be shorter). */
export function inChunks<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
