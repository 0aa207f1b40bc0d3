// The names an account's shards go by (workers/billing/account-branches.ts): the first keeps the
// name every account's shard had before it had branches, the account id; branch k is
// `{account id}/branch-{k}`. A shard reads its own name to know which it is.
const BRANCH = "/branch-";

function accountShardName(accountId: string, branch: number): string {
  return branch === 0 ? accountId : `${accountId}${BRANCH}${branch}`;
}

/** The stub of one of the account's shards, in whichever namespace holds them (the edge's binding, or a shard reaching its peers). */
export function accountShardIn<Shard extends Rpc.DurableObjectBranded | undefined>(namespace: DurableObjectNamespace<Shard>, accountId: string, branch: number): DurableObjectStub<Shard> {
  return namespace.get(namespace.idFromName(accountShardName(accountId, branch)));
}

/** Which of its account's shards a name names; 0 for the first (and for no name). */
export function branchOfShardName(name: string | undefined): number {
  const at = name?.lastIndexOf(BRANCH) ?? -1;
  return at < 0 ? 0 : Number(name!.slice(at + BRANCH.length));
}
