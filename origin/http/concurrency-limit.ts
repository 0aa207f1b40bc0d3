import os from "node:os";

/**
 * At most `limit` tasks at once, the rest wait in arrival order. Heavy codecs each hold a
 * decoded image in memory, so a cap tied to the cores keeps the origin's RSS flat under bursts.
 */
export function concurrencyLimit(limit = Math.max(1, os.availableParallelism())) {
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
