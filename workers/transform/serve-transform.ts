// The transform path past the edge cache, for file and origin sources alike: read (the route's
// chain made the TransformRequest, read-transform-request.ts), plan (transform-plan.ts), run the
// plan's tier (compute-derivative.ts), answer (answer-transform.ts). The balance is asked, and the
// charge named, here and nowhere else on the path; the shard makes it as it keeps the derivative.
import { requireBalance } from "../billing/charge-once.ts";
import { answerComputed, answerStored } from "./answer-transform.ts";
import { computeDerivative } from "./compute-derivative.ts";
import type { TransformRequest } from "./transform-request.ts";
import { planTransform, type PlanEnv } from "./transform-plan.ts";
import type { Bindings } from "../env.ts";

type ServeEnv = PlanEnv & Pick<Bindings, "ACCOUNT_SHARDS" | "ORIGIN_URL" | "ORIGIN_SECRET">;

export async function serveTransform(env: ServeEnv, request: TransformRequest): Promise<Response> {
  const plan = await planTransform(env, request);
  if (plan.stored) return answerStored(env, plan, plan.stored);
  const { identity, price } = plan;
  await requireBalance(env, identity.accountId, price);
  const derivative = await computeDerivative(env, identity.accountId, plan.source.original, plan.op, plan.choice, plan.overlay);
  return answerComputed(env, plan, derivative, { accountId: identity.accountId, chargeKey: plan.chargeKey, operation: "image.transform", amountMicros: price });
}
