// What the transform path looks up (in D1 or a shard) and remembers in the isolate a short while: a lookup
// per <img> at page-view rates would otherwise cost a D1 read on every edge-cache hit. A change
// takes effect at once in the isolate that made it (it forgets the entry) and within MEMO_MS in
// the others.
export const MEMO_MS = 30_000;
const MEMO_LIMIT = 1_000;

export interface IsolateMemo<Value> {
  /** The remembered value, or a fresh `load` (remembered, null included) once the entry is older than MEMO_MS. */
  get(key: string, load: () => Promise<Value>, now?: number): Promise<Value>;
  /** Remembers `value` as though it had just been loaded. */
  set(key: string, value: Value, now?: number): void;
  forget(key: string): void;
  /** Forgets every entry whose value `matches`. */
  forgetWhere(matches: (value: Value) => boolean): void;
}

/** A memo whose entries last `memoMs` (MEMO_MS unless a caller needs them fresher). */
export function isolateMemo<Value>(memoMs = MEMO_MS): IsolateMemo<Value> {
  const entries = new Map<string, { value: Value; until: number }>();
  const set = (key: string, value: Value, now: number) => {
    if (entries.size >= MEMO_LIMIT) entries.clear();
    entries.set(key, { value, until: now + memoMs });
    return value;
  };
  return {
    async get(key, load, now = Date.now()) {
      const entry = entries.get(key);
      return entry && entry.until > now ? entry.value : set(key, await load(), now);
    },
    set(key, value, now = Date.now()) {
      set(key, value, now);
    },
    forget(key) {
      entries.delete(key);
    },
    forgetWhere(matches) {
      for (const [key, entry] of entries) if (matches(entry.value)) entries.delete(key);
    },
  };
}
