// Counts the calls a request makes to account shards and file shards, so the budgets
// (workers/db/statement-budgets.ts) pin them beside the shared database's statements and
// bench:capacity sizes the busiest account's objects from them. The namespaces are wrapped, not
// mocked: every call still reaches the real Durable Object.

export interface ShardCallTally {
  account: number;
  file: number;
  /** Each call's object kind and method, in the order made, for the message of a budget that fails. */
  calls: string[];
}

export const emptyShardCalls = (): ShardCallTally => ({ account: 0, file: 0, calls: [] });

/** `namespace` with every method called on one of its stubs counted into `tally` as `kind`. */
export function meteredShards<Shard extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<Shard>,
  tally: ShardCallTally,
  kind: "account" | "file",
): DurableObjectNamespace<Shard> {
  const meteredStub = (stub: DurableObjectStub<Shard>) =>
    new Proxy(stub, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          tally[kind]++;
          tally.calls.push(`${kind}.${String(property)}`);
          // Reflect.apply, not value.apply: on an RPC stub every property, `apply` too, is a remote method.
          return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        };
      },
    });
  return new Proxy(namespace, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (property === "get") return (...args: unknown[]) => meteredStub(Reflect.apply(value as (...a: unknown[]) => DurableObjectStub<Shard>, target, args));
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
