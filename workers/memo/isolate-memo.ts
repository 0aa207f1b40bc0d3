// What the transform path looks up in D1 and remembers in the isolate for a short while: a lookup
// per <img> at page-view rates would otherwise cost a D1 read on every edge-cache hit. A change
// takes effect at once in the isolate that made it (it forgets the entry) and within MEMO_MS in
// the others.
export const MEMO_MS = 30_000;
const MEMO_LIMIT = 1_000;

export interface IsolateMemo<Value> {
  /** The remembered value, or a fresh `load` (remembered, null included) once the entry is older than MEMO_MS. */
  get(key: string, load: () => Promise<Value>, now?: number): Promise<Value>;
  forget(key: string): void;
  /** Forgets every entry whose value `matches`. */
  forgetWhere(matches: (value: Value) => boolean): void;
}

export function isolateMemo<Value>(): IsolateMemo<Value> {
  const entries = new Map<string, { value: Value; until: number }>();
  return {
    async get(key, load, now = Date.now()) {
      let entry = entries.get(key);
      if (!entry || entry.until <= now) {
        entry = { value: await load(), until: now + MEMO_MS };
        if (entries.size >= MEMO_LIMIT) entries.clear();
        entries.set(key, entry);
      }
      return entry.value;
    },
    forget(key) {
      entries.delete(key);
    },
    forgetWhere(matches) {
      for (const [key, entry] of entries) if (matches(entry.value)) entries.delete(key);
    },
  };
}
