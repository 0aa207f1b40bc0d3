// Why a fetch to a customer's host failed, in words a customer can act on. workerd hides the cause
// of most failures behind "internal error; reference = …" (a name that does not resolve, a TLS
// handshake that fails) and says "Network connection lost." for a refused connection; deployed,
// Cloudflare answers such failures with its own 52x statuses instead. Neither the platform's
// message nor anything about the network the edge runs in is passed on.
import { ProblemError } from "../../contracts/problems/catalogue.ts";

export type ConnectionFailureReason = "dns" | "refused" | "tls" | "network";

export interface ConnectionFailure {
  reason: ConnectionFailureReason;
  /** Names only the host the customer gave (or redirected to), e.g. "img.example.com: DNS name not found". */
  detail: string;
}

// A TCP connection to the host, without the HTTP or TLS on top, tells a name that does not
// resolve from a TLS handshake that fails; it sends nothing and is closed at once.
const PROBE_TIMEOUT_MS = 2_000;

async function tcpProbe(url: URL): Promise<"open" | "refused" | "silent"> {
  const { connect } = await import("cloudflare:sockets");
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const socket = connect({ hostname: url.hostname, port });
  const silent = new Promise<"silent">((resolve) => setTimeout(resolve, PROBE_TIMEOUT_MS, "silent"));
  const opened = socket.opened.then(
    () => "open" as const,
    () => "refused" as const,
  );
  const outcome = await Promise.race([opened, silent]);
  socket.close().catch(() => {});
  return outcome;
}

const isIpLiteral = (hostname: string) => /^[\d.]+$/.test(hostname) || hostname.startsWith("[");

/** The cause of a fetch that threw before any answer arrived (a timeout is the caller's own). */
export async function connectionFailure(url: URL, error: unknown): Promise<ConnectionFailure> {
  const message = error instanceof Error ? error.message : String(error);
  if (/network connection lost/i.test(message)) {
    return { reason: "refused", detail: `${url.host} refused the connection or closed it before answering` };
  }
  const probe = await tcpProbe(url);
  if (probe === "silent") return { reason: "network", detail: `${url.host} did not accept a connection in time` };
  if (probe === "refused") {
    return isIpLiteral(url.hostname)
      ? { reason: "refused", detail: `${url.host} did not accept a connection` }
      : { reason: "dns", detail: `${url.hostname}: DNS name not found` };
  }
  if (url.protocol === "https:") return { reason: "tls", detail: `${url.host}: the TLS handshake failed (no valid certificate or no TLS on that port)` };
  return { reason: "network", detail: `${url.host} accepted the connection but the request failed` };
}

/** Why a request to `url` threw, for a record a customer reads: a refusal's reason, a timeout, or the cause. */
export async function requestFailure(url: string, error: unknown): Promise<string> {
  if (error instanceof ProblemError) return error.message;
  if (error instanceof DOMException && error.name === "TimeoutError") return `${new URL(url).host} did not answer in time`;
  return (await connectionFailure(new URL(url), error)).detail;
}

// Statuses Cloudflare's edge answers for a host it could not reach, in place of the host's own.
const PLATFORM_STATUSES: Record<number, string> = {
  521: "refused the connection",
  522: "timed out while connecting",
  523: "is unreachable",
  525: "failed the TLS handshake",
  526: "has an invalid TLS certificate",
  530: "could not be resolved (DNS name not found)",
};

/** "answered 404 Not Found", or what a platform status means when the host itself sent none. */
export function upstreamStatusDetail(host: string, response: Response): string {
  const meaning = PLATFORM_STATUSES[response.status];
  if (meaning) return `${host} ${meaning} (HTTP ${response.status} from the network)`;
  return `${host} answered ${response.status} ${response.statusText}`.trim();
}
