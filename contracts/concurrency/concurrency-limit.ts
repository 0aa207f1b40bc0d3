/**
 * At most `limit` tasks at once, the rest wait in arrival order. The origin caps its codecs by
 * cores so RSS stays flat under bursts; the edge caps a batch's items in flight.
 */
export type ConcurrencyLimit = <T>(task: () => Promise<T>) => Promise<T>;

export function concurrencyLimit(limit: number): ConcurrencyLimit {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
