import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import { checkUrl } from "../sources/check-url.ts";

/**
 * A webhook endpoint passes the same address guard as a source URL. It is checked wherever one
 * enters (the account's endpoint, every processing request that names one) so nothing is
 * accepted, charged or queued for an endpoint every delivery would refuse, and again at delivery.
 * `pointer` names the field in the request that carried it.
 */
export function checkWebhookUrl(env: Pick<Bindings, "ALLOW_LOOPBACK_URLS">, url: string, pointer: string): URL {
  try {
    return checkUrl(url, { allowLoopback: env.ALLOW_LOOPBACK_URLS === "true" });
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    throw new ProblemError(error.slug, `webhook URL: ${error.message}`, {
      extensions: error.extensions,
      errors: [{ pointer, detail: error.message }],
    });
  }
}
