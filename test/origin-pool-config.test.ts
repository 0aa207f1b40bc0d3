// The pool's size is declared once, as the edge's ORIGIN_INSTANCES: wrangler.toml cannot import it,
// so its Containers limit is held to it here. A pool larger than the limit would spread calls over
// instances that can never start; a smaller one would leave instances unused.
import { unstable_readConfig } from "wrangler";
import { expect, it } from "vitest";
import { z } from "zod";
import { containerInstanceCount } from "../workers/origin/origin-pool.ts";

const poolConfig = z.object({
  vars: z.object({ ORIGIN_INSTANCES: z.string() }),
  containers: z.array(z.object({ class_name: z.literal("OriginContainer"), max_instances: z.number().int() })).length(1),
});

it("gives the origin's Containers exactly as many instances as the edge spreads calls over", () => {
  const config = poolConfig.parse(unstable_readConfig({ config: "wrangler.toml" }, { hideWarnings: true }));
  expect(containerInstanceCount(config.vars.ORIGIN_INSTANCES)).toBe(config.containers[0]!.max_instances);
});

it("refuses a pool size that is not a positive whole number", () => {
  for (const value of ["0", "-2", "2.5", "eight", "", undefined]) expect(() => containerInstanceCount(value)).toThrow(/ORIGIN_INSTANCES/);
});
