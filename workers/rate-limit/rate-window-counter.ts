import { DurableObject } from "cloudflare:workers";

interface Window {
  start: number;
  count: number;
}

/**
 * One subject's fixed window (a key, a client address, a file), counted in a Durable Object of its
 * own, so counting a request sends nothing to the shared database and one subject's traffic never
 * queues behind another's. The object runs one call at a time, so two requests at once are
 * counted one after the other, and the window is kept in its storage, so an object evicted while
 * idle comes back with its count.
 */
export class RateWindowCounter extends DurableObject {
  private window: Window | null = null;

  /** Counts one request in the window starting at `windowStart` and returns the window's count so far. */
  async count(windowStart: number): Promise<number> {
    const kept = this.window ?? (await this.ctx.storage.get<Window>("window")) ?? null;
    const window = kept && kept.start === windowStart ? { start: windowStart, count: kept.count + 1 } : { start: windowStart, count: 1 };
    this.window = window;
    // Not awaited: the output gate holds the reply until the write is durable, without a round trip here.
    void this.ctx.storage.put("window", window);
    return window.count;
  }
}
