import {
  encodeOptionsHeader,
  ORIGIN_OPTIONS_HEADER,
  ORIGIN_SECRET_HEADER,
  readFrame,
  type Frame,
} from "../../contracts/origin/framing.ts";
import { isProblemBody, ProblemError, slugOfType } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";

type OriginEnv = Pick<Bindings, "ORIGIN_URL" | "ORIGIN_SECRET" | "ORIGIN_CONTAINER">;

/** Container instances requests are spread over when the origin runs as Cloudflare Containers. */
const CONTAINER_INSTANCES = 4;

/**
 * The one place the edge reaches the origin. Where the origin runs is configuration: ORIGIN_URL
 * when set (a local process, any container platform), else the Cloudflare Containers binding.
 */
export async function originFetch(env: OriginEnv, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set(ORIGIN_SECRET_HEADER, env.ORIGIN_SECRET);
  try {
    if (!env.ORIGIN_URL && env.ORIGIN_CONTAINER) {
      const instance = `origin-${Math.floor(Math.random() * CONTAINER_INSTANCES)}`;
      const container = env.ORIGIN_CONTAINER.get(env.ORIGIN_CONTAINER.idFromName(instance));
      return await container.fetch(new Request(new URL(path, "http://origin.internal"), { ...init, headers }));
    }
    return await fetch(new Request(new URL(path, env.ORIGIN_URL), { ...init, headers }));
  } catch (error) {
    throw new ProblemError("origin_unavailable", `The processing service did not answer (${String(error)}).`);
  }
}

export async function originHealthy(env: OriginEnv, timeoutMs: number): Promise<boolean> {
  try {
    const res = await originFetch(env, "/healthz", { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * A compute call: input bytes and options in, the framed meta and output out. The origin's own
 * problems (a corrupt image is its 422) reach the client unchanged.
 */
export async function originCompute<M>(
  env: OriginEnv,
  path: string,
  input: { body: BodyInit; options: unknown; contentType?: string },
): Promise<Frame<M>> {
  const res = await originFetch(env, path, {
    method: "POST",
    body: input.body,
    headers: {
      "Content-Type": input.contentType ?? "application/octet-stream",
      [ORIGIN_OPTIONS_HEADER]: encodeOptionsHeader(input.options),
    },
  });
  if (!res.ok || !res.body) throw await originProblem(res);
  const length = res.headers.get("Content-Length");
  return readFrame<M>(res.body, length === null ? null : Number(length));
}

async function originProblem(res: Response): Promise<ProblemError> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not a problem document
  }
  if (isProblemBody(body)) {
    const slug = slugOfType(body.type);
    if (slug && body.status < 500) {
      const { type: _type, title: _title, status, detail, errors, request_id: _requestId, ...extensions } = body;
      return new ProblemError(slug, detail, { status, errors, extensions });
    }
  }
  return new ProblemError("origin_unavailable", `The processing service failed (${res.status}). Not charged.`);
}
