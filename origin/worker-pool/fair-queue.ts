// Waiting work, queued per account and taken in turns: the account served least recently goes
// first, so a thousand queued jobs of one account delay another account's job by one turn, not
// by a thousand jobs. Calls that name no account share one queue.

const SERVED_MEMORY = 10_000;

export class FairQueue<T> {
  readonly #byAccount = new Map<string, T[]>();
  // When each account was last served, so that an account whose queue ran empty and refilled
  // does not jump ahead of one that waited. Bounded: the oldest entries go first.
  readonly #servedAt = new Map<string, number>();
  #serial = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Accounts with work waiting. */
  get accounts(): number {
    return this.#byAccount.size;
  }

  push(account: string, item: T): void {
    const queue = this.#byAccount.get(account);
    if (queue === undefined) this.#byAccount.set(account, [item]);
    else queue.push(item);
    this.#size++;
  }

  /**
   * The oldest item of the account whose turn it is: among the accounts `eligible` accepts, the
   * lowest `rank` (the caller's count of that account's running jobs), then the one served least
   * recently.
   */
  shift(eligible: (account: string) => boolean = () => true, rank: (account: string) => number = () => 0): { account: string; item: T } | undefined {
    let chosen: string | undefined;
    let best = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    for (const account of this.#byAccount.keys()) {
      if (!eligible(account)) continue;
      const key = [rank(account), this.#servedAt.get(account) ?? -1];
      if (key[0]! < best[0]! || (key[0] === best[0] && key[1]! < best[1]!)) [chosen, best] = [account, key];
    }
    const queue = chosen === undefined ? undefined : this.#byAccount.get(chosen);
    const item = queue?.shift();
    if (chosen === undefined || queue === undefined || item === undefined) return undefined;
    if (queue.length === 0) this.#byAccount.delete(chosen);
    this.#size--;
    this.#servedAt.delete(chosen);
    this.#servedAt.set(chosen, this.#serial++);
    if (this.#servedAt.size > SERVED_MEMORY) this.#servedAt.delete(this.#servedAt.keys().next().value!);
    return { account: chosen, item };
  }

  /** Takes an item out of its queue (it gave up waiting); false when it is no longer there. */
  remove(account: string, item: T): boolean {
    const queue = this.#byAccount.get(account);
    const index = queue?.indexOf(item) ?? -1;
    if (queue === undefined || index < 0) return false;
    queue.splice(index, 1);
    if (queue.length === 0) this.#byAccount.delete(account);
    this.#size--;
    return true;
  }

  /** Empties the queue and returns what was in it. */
  drain(): T[] {
    const items = [...this.#byAccount.values()].flat();
    this.#byAccount.clear();
    this.#size = 0;
    return items;
  }
}
