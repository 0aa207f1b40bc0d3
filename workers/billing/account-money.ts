// An account's money inside one of its shards (workers/shards/account-shard.ts), and how it moves
// between them (./shard-transfers.ts). The first shard holds the balance top-ups are paid into; a
// branch charges from an allotment of it and asks the first shard for more when a charge falls
// short. The first shard, short itself, first takes back whatever the branches hold, so a 402 is
// given only when the account's money, wherever it sits, does not cover the call: with money for
// ten calls, ten of fifty sent at once are charged, spread over any number of shards.
import type { ShardDb } from "../shards/shard-db.ts";
import { topUpCharge, type Charge } from "./charge.ts";
import { forgetTopUps, pendingTopUpsOf } from "./d1-ledger.ts";
import { balanceMicros, recordCharge, type ShardChargeOutcome } from "./shard-ledger.ts";
import { allotmentMade, allottedBranches, lastAllotment, type Allotment, nextGrant, nextRecall, recordAllotment, recordReceipt, recordRecovery, recordReturn, returnMade } from "./shard-transfers.ts";

/** What the money in one shard asks of the account's other shards (workers/shards/account-shard.ts answers). */
export interface MoneyPeer {
  allot(accountId: string, branch: number, grant: number, need: number): Promise<number>;
  giveBack(accountId: string, recall: number, last: Allotment | null): Promise<number>;
  heldMicros(accountId: string, last: Allotment | null): Promise<number>;
}

/** What the shard the money is in lends it: word that its ledger changed (for its feed), and its account's other shards. */
export interface MoneyHost {
  changed(): Promise<void>;
  peer(accountId: string, branch: number): MoneyPeer;
}

// A shard that falls short looks for top-ups granted since it last looked at most this often, so
// an account at zero cannot turn each refused call into a read of the shared database.
const TOP_UP_LOOK_MS = 2_000;
// A branch's charge asks for an allotment at most this many times: each allotment it was given and
// lost to a concurrent charge paid for that charge, so this bounds only a very busy branch's wait.
const ALLOTMENT_ASKS = 8;

export class AccountMoney {
  private lastTopUpLook = 0;
  private topUpLook: Promise<void> | null = null;
  private refilling: Promise<boolean> | null = null;
  private gathering: Promise<void> | null = null;
  private gatheringExcept: number | null = null;
  // Money reaches a branch only as an allotment: after a recall that found every branch and no
  // allotment was made meanwhile, none holds any, and a refused call need not ask them again.
  private branchesMayHold = true;
  private allotments = 0;
  private branchesAllotted: Set<number> | null = null;

  private readonly db: ShardDb;
  /** The shared database, where top-ups are granted. */
  private readonly shared: D1Database;
  /** Which of the account's shards this is (0: the first). */
  readonly branch: number;
  private readonly host: MoneyHost;

  constructor(db: ShardDb, shared: D1Database, branch: number, host: MoneyHost) {
    this.db = db;
    this.shared = shared;
    this.branch = branch;
    this.host = host;
  }

  private changed(): Promise<void> {
    return this.host.changed();
  }

  /** Records the charge once; one that falls short gets the money from wherever the account holds it, or is refused with nothing recorded. */
  async charge(accountId: string, charge: Charge, now: number): Promise<ShardChargeOutcome> {
    let outcome = recordCharge(this.db, charge, now);
    for (let ask = 0; outcome === "insufficient_balance" && ask < ALLOTMENT_ASKS; ask++) {
      if (!(await this.cover(accountId, charge.amountMicros))) break;
      outcome = recordCharge(this.db, charge, now);
    }
    if (outcome === "charged") await this.changed();
    return outcome;
  }

  /** This shard's own balance: the account's in the first shard, an allotment's rest in a branch. */
  held(): number {
    return balanceMicros(this.db);
  }

  /** A branch: what it holds, with `last` (the first shard's newest allotment to it) recorded first if its reply was lost. */
  async holds(last: Allotment | null): Promise<number> {
    if (last !== null && this.receive(last)) await this.changed();
    return this.held();
  }

  /** The first shard: its balance, gathered from the branches and with granted top-ups applied when it is below `cover`. */
  async balance(accountId: string, cover: number): Promise<number> {
    if (this.held() < cover) await this.lookForTopUps(accountId, false);
    if (this.held() < cover) await this.gather(accountId, null);
    return this.held();
  }

  /** The first shard: the account's whole balance, every granted top-up applied, with what each branch holds. */
  async whole(accountId: string): Promise<number> {
    await this.lookForTopUps(accountId, true);
    const branches = [...this.allotted()].map((branch) => this.host.peer(accountId, branch).heldMicros(accountId, lastAllotment(this.db, branch)));
    return (await Promise.all(branches)).reduce((sum, micros) => sum + micros, this.held());
  }

  /**
   * The first shard: the `grant`th allotment `branch` asks for, at least `need`; 0 when the account's
   * money does not cover `need`. Asked again for the same number, the amount allotted then.
   */
  async allot(accountId: string, branch: number, grant: number, need: number): Promise<number> {
    const made = allotmentMade(this.db, branch, grant);
    if (made !== null) return made;
    if (this.held() < need) await this.lookForTopUps(accountId, false);
    // Short even so, the account's money is scarce: the branch gets just what it needs, so none sits
    // idle in one branch while another's call is refused.
    const scarce = this.held() < need;
    if (scarce) await this.gather(accountId, branch);
    if (this.held() >= need) {
      // Plenty, it is shared evenly between this shard and the branches that have asked so far.
      const sharers = this.allotted().size + (this.allotted().has(branch) ? 1 : 2);
      const share = scarce ? need : Math.max(need, Math.floor(this.held() / sharers));
      if (recordAllotment(this.db, branch, grant, share, Date.now()) === "charged") {
        this.allotted().add(branch);
        this.allotments++;
        this.branchesMayHold = true;
        await this.changed();
      }
    }
    return allotmentMade(this.db, branch, grant) ?? 0;
  }

  /**
   * A branch: gives back all it holds as the `recall`th return asked of it (asked again, what it gave
   * then). `last` is the first shard's newest allotment to it, recorded here first if its reply was lost.
   */
  async giveBack(recall: number, last: Allotment | null): Promise<number> {
    const now = Date.now();
    if (last !== null) this.receive(last);
    const made = returnMade(this.db, this.branch, recall);
    if (made !== null) return made;
    const micros = this.held();
    if (micros > 0) recordReturn(this.db, this.branch, recall, micros, now);
    await this.changed();
    return micros;
  }

  /** A branch records an allotment it was sent (true when it had not yet). */
  private receive(allotment: Allotment): boolean {
    return recordReceipt(this.db, this.branch, allotment, Date.now()) === "charged";
  }

  /** Money for a charge this shard falls short of: true when some came (the charge may try again). */
  private cover(accountId: string, amount: number): Promise<boolean> {
    if (this.branch !== 0) return this.refill(accountId, amount - this.held());
    return this.balance(accountId, amount).then((balance) => balance >= amount);
  }

  /** A branch asks the first shard for an allotment, one ask at a time; a charge that waited on another's ask tries again after it. */
  private refill(accountId: string, need: number): Promise<boolean> {
    if (this.refilling) return this.refilling.then(() => true);
    this.refilling = this.askAllotment(accountId, need).finally(() => {
      this.refilling = null;
    });
    return this.refilling;
  }

  private async askAllotment(accountId: string, need: number): Promise<boolean> {
    const grant = nextGrant(this.db, this.branch);
    const micros = await this.host.peer(accountId, 0).allot(accountId, this.branch, grant, need);
    if (micros === 0) return false;
    if (this.receive({ grant, micros })) await this.changed();
    return true;
  }

  /**
   * The first shard takes back what the branches hold (but `except`'s, which is asking), one recall at
   * a time: a call that finds one under way waits for it, and gathers again after it when that one
   * left out a branch this call needs.
   */
  private gather(accountId: string, except: number | null): Promise<void> {
    if (this.gathering) {
      const enough = this.gatheringExcept === null || this.gatheringExcept === except;
      return enough ? this.gathering : this.gathering.then(() => this.gather(accountId, except));
    }
    if (!this.branchesMayHold || this.allotted().size === 0) return Promise.resolve();
    this.gatheringExcept = except;
    this.gathering = this.recallBranches(accountId, except).finally(() => {
      this.gathering = null;
    });
    return this.gathering;
  }

  private async recallBranches(accountId: string, except: number | null): Promise<void> {
    const allotments = this.allotments;
    const branches = [...this.allotted()].filter((branch) => branch !== except);
    const returns = await Promise.allSettled(
      branches.map(async (branch) => {
        const recall = nextRecall(this.db, branch);
        const micros = await this.host.peer(accountId, branch).giveBack(accountId, recall, lastAllotment(this.db, branch));
        if (micros > 0) recordRecovery(this.db, branch, recall, micros, Date.now());
      }),
    );
    // A branch that did not answer may still hold money; so may the one asking.
    if (except === null && allotments === this.allotments && returns.every((r) => r.status === "fulfilled")) this.branchesMayHold = false;
    await this.changed();
  }

  /** The first shard: the branches it has allotted money to, read once. */
  private allotted(): Set<number> {
    this.branchesAllotted ??= new Set(allottedBranches(this.db));
    return this.branchesAllotted;
  }

  /** Applies the top-ups granted in the shared database; calls that fall short while a look is under way wait for it. */
  private lookForTopUps(accountId: string, always: boolean): Promise<void> {
    if (this.branch !== 0) return Promise.resolve();
    if (this.topUpLook) return this.topUpLook;
    if (!always && Date.now() - this.lastTopUpLook < TOP_UP_LOOK_MS) return Promise.resolve();
    this.lastTopUpLook = Date.now();
    this.topUpLook = this.applyTopUps(accountId).finally(() => {
      this.topUpLook = null;
    });
    return this.topUpLook;
  }

  private async applyTopUps(accountId: string): Promise<void> {
    const granted = await pendingTopUpsOf(this.shared, accountId);
    const now = Date.now();
    let applied = false;
    for (const topUp of granted) applied = recordCharge(this.db, topUpCharge(accountId, topUp.micros, topUp.reference), now) === "charged" || applied;
    await forgetTopUps(this.shared, accountId, granted.map((topUp) => topUp.reference));
    if (applied) await this.changed();
  }
}
