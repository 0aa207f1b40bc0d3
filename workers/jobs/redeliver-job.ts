import type { Bindings } from "../env.ts";

const REDELIVER_PATH = /^\/__dev\/jobs\/(job_[A-Za-z0-9]{20,21})\/redeliver$/;

/**
 * Development only (ENVIRONMENT=development): `POST /__dev/jobs/{job_id}/redeliver` sends the job's
 * message through the real producer once more, as an at-least-once queue may deliver it twice.
 * bench:soak uses it to prove a duplicate delivery neither runs nor bills a job twice. The message
 * names only the job, as one enqueued before messages named their account: the consumer finds the
 * account in the shared report once the job's shard has fed it (./message-account.ts). Anywhere
 * else the path does not exist (null: the app answers, with its 404).
 */
export async function redeliverJobMessage(request: Request, env: Pick<Bindings, "ENVIRONMENT" | "JOBS">): Promise<Response | null> {
  if (env.ENVIRONMENT !== "development" || request.method !== "POST") return null;
  const match = REDELIVER_PATH.exec(new URL(request.url).pathname);
  if (!match) return null;
  await env.JOBS.send({ kind: "job", job_id: match[1]! });
  return new Response(null, { status: 202 });
}
