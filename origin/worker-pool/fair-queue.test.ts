import { describe, expect, it } from "vitest";
import { FairQueue } from "./fair-queue.ts";

function drainOrder(queue: FairQueue<string>, rank: (account: string) => number = () => 0): string[] {
  const order: string[] = [];
  for (let next = queue.shift(() => true, rank); next !== undefined; next = queue.shift(() => true, rank)) order.push(next.item);
  return order;
}

describe("FairQueue", () => {
  it("takes accounts in turns, each account's items in arrival order", () => {
    const queue = new FairQueue<string>();
    for (const item of ["a1", "a2", "a3", "a4"]) queue.push("A", item);
    queue.push("B", "b1");
    queue.push("C", "c1");
    queue.push("B", "b2");
    expect(queue.size).toBe(7);
    expect(queue.accounts).toBe(3);
    expect(drainOrder(queue)).toEqual(["a1", "b1", "c1", "a2", "b2", "a3", "a4"]);
    expect(queue.size).toBe(0);
  });

  it("serves the account with the fewest running jobs first, and skips accounts that may not run more", () => {
    const queue = new FairQueue<string>();
    queue.push("A", "a1");
    queue.push("B", "b1");
    const running = new Map([["A", 1]]);
    expect(queue.shift(() => true, (account) => running.get(account) ?? 0)?.item).toBe("b1");
    expect(queue.shift((account) => account !== "A")).toBeUndefined();
    expect(queue.shift()?.item).toBe("a1");
  });

  it("removes an item that gave up waiting, once", () => {
    const queue = new FairQueue<string>();
    queue.push("A", "a1");
    queue.push("A", "a2");
    expect(queue.remove("A", "a1")).toBe(true);
    expect(queue.remove("A", "a1")).toBe(false);
    expect(drainOrder(queue)).toEqual(["a2"]);
    expect(queue.accounts).toBe(0);
  });
});
