// Which origin instance a call goes to: the less loaded of two picked at random ("power of two
// choices"), from what this isolate knows. That is the load each instance's last reply declared,
// remembered briefly because other isolates send it work too, and the calls this isolate has
// in flight there, known exactly. An instance that failed or stopped answering is skipped for a
// back-off that doubles while it keeps failing; when it ends, one call tries it again.
import type { OriginLoad } from "../../contracts/origin/framing.ts";

/** How long a reply's declared load stands for the instance: past it, only this isolate's own calls count. */
export const LOAD_MEMORY_MS = 2_000;
export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 30_000;

interface InstanceState {
  load: OriginLoad | null;
  loadAt: number;
  inFlight: number;
  calls: number;
  failures: number;
  /** Failures since its last answer: the back-off doubles with each. */
  failedInARow: number;
  backoffUntil: number;
}

/** One instance as /healthz reports it. */
export interface InstanceView {
  load: OriginLoad | null;
  load_age_ms: number | null;
  in_flight: number;
  calls: number;
  failures: number;
  backoff_ms: number;
}

export class InstanceChooser {
  readonly #states = new Map<string, InstanceState>();
  readonly #now: () => number;
  readonly #random: () => number;

  constructor(clock: { now: () => number; random: () => number } = { now: Date.now, random: Math.random }) {
    this.#now = clock.now;
    this.#random = clock.random;
  }

  /**
   * One of `keys`, never one in `avoid` unless nothing else is left. Instances in back-off are
   * skipped while any other is available: a pool whose every instance failed still tries one.
   */
  choose(keys: readonly string[], avoid: ReadonlySet<string> = new Set()): string {
    if (keys.length === 0) throw new Error("no origin instance to choose from");
    const fresh = keys.filter((key) => !avoid.has(key));
    const open = fresh.filter((key) => this.#available(key));
    const candidates = open.length > 0 ? open : fresh.length > 0 ? fresh : keys;
    if (candidates.length === 1) return candidates[0]!;
    const first = Math.floor(this.#random() * candidates.length);
    const second = (first + 1 + Math.floor(this.#random() * (candidates.length - 1))) % candidates.length;
    const [a, b] = [candidates[first]!, candidates[second]!];
    return this.#score(b) < this.#score(a) ? b : a;
  }

  /** A call leaves for `key`; pair it with one `answered` or `failed`. */
  started(key: string): void {
    const state = this.#state(key);
    state.inFlight++;
    state.calls++;
  }

  answered(key: string, load: OriginLoad | null): void {
    const state = this.#state(key);
    state.inFlight = Math.max(0, state.inFlight - 1);
    state.failedInARow = 0;
    state.backoffUntil = 0;
    if (load !== null) {
      state.load = load;
      state.loadAt = this.#now();
    }
  }

  /** The call found the instance dead, draining or unresponsive (`settled` false: the call itself is still waiting). */
  failed(key: string, settled = true): void {
    const state = this.#state(key);
    if (settled) state.inFlight = Math.max(0, state.inFlight - 1);
    state.failures++;
    state.failedInARow++;
    state.backoffUntil = this.#now() + Math.min(BACKOFF_BASE_MS * 2 ** (state.failedInARow - 1), BACKOFF_MAX_MS);
  }

  view(key: string): InstanceView {
    const state = this.#state(key);
    const now = this.#now();
    return {
      load: state.load,
      load_age_ms: state.load === null ? null : now - state.loadAt,
      in_flight: state.inFlight,
      calls: state.calls,
      failures: state.failures,
      backoff_ms: Math.max(0, state.backoffUntil - now),
    };
  }

  #available(key: string): boolean {
    const state = this.#states.get(key);
    if (state === undefined) return true;
    if (this.#now() < state.backoffUntil) return false;
    // Out of back-off but not yet answered: one call at a time finds out whether it is back.
    return state.failedInARow === 0 || state.inFlight === 0;
  }

  /** Work per worker the instance would have if it got this call. */
  #score(key: string): number {
    const state = this.#states.get(key);
    if (state === undefined) return 0;
    const remembered = state.load !== null && this.#now() - state.loadAt <= LOAD_MEMORY_MS ? state.load : null;
    const work = Math.max(state.inFlight, remembered === null ? 0 : remembered.busy + remembered.queued);
    return work / (state.load?.size ?? 1);
  }

  #state(key: string): InstanceState {
    let state = this.#states.get(key);
    if (state === undefined) {
      state = { load: null, loadAt: 0, inFlight: 0, calls: 0, failures: 0, failedInARow: 0, backoffUntil: 0 };
      this.#states.set(key, state);
    }
    return state;
  }
}
