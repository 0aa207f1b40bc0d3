// A URL naming a preset (`t_<name>`) becomes the transform it stands for here, before the edge
// cache is asked, since the derivative's cache key is the expansion's. The preset is remembered in
// the isolate as transform keys are (isolate-memo.ts), so a cache hit reads no D1: a change takes
// effect at once in the isolate that made it and within MEMO_MS elsewhere.
import { expandPreset, unknownPreset } from "../../contracts/transform/preset.ts";
import type { TransformSpec } from "../../contracts/transform/registry.ts";
import type { Bindings } from "../env.ts";
import { isolateMemo } from "../memo/isolate-memo.ts";
import { findPresetTransform } from "./preset-store.ts";

const memo = isolateMemo<string | null>();

const memoKey = (accountId: string, name: string) => `${accountId}/${name}`;

/** The transform `asked` stands for: itself without a preset, else the preset with the URL's tokens over it. An unknown name is `transform_invalid` naming the token. */
export async function expandedSpec(env: Pick<Bindings, "DB">, accountId: string, asked: TransformSpec): Promise<TransformSpec> {
  const name = asked.preset;
  if (name === undefined) return asked;
  const transform = await memo.get(memoKey(accountId, name), () => findPresetTransform(env.DB, accountId, name));
  if (transform === null) throw unknownPreset(name);
  return expandPreset(transform, asked);
}

/** After a preset is created, changed or deleted: this isolate expands the name afresh. */
export function forgetPreset(accountId: string, name: string): void {
  memo.forget(memoKey(accountId, name));
}
