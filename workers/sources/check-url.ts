// The SSRF guard's static half: what a URL may name before anything is fetched. Used for
// `source.url`, every redirect hop, and webhook endpoints.
//
// Workers have no DNS API, so a host name cannot be resolved and checked here; the guard
// refuses IP literals outside public space and host names that only exist inside networks.
// Deployed, fetch() resolves through Cloudflare's own resolver and leaves from Cloudflare's
// public egress, and Cloudflare documents that Workers subrequests cannot target IP literals
// or custom ports at all; a public name that resolves to a private address (DNS rebinding,
// nip.io) is left to that platform egress. Under `wrangler dev`, fetch() runs on the local
// machine, where these literal checks are the whole defence.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { classifyAddress, type AddressClass } from "./address.ts";

export const MAX_URL_LENGTH = 2048;
// Privileged ports below 1024 host mail, SSH, DNS and the like, not files to fetch; 80 and 443
// are the web, and unprivileged ports stay open for development servers and CDNs.
export const MIN_CUSTOM_PORT = 1024;

// Names that only resolve inside a network: RFC 6761/6762 special-use and ICANN's private-use
// `.internal` (metadata.google.internal) plus common intranet suffixes.
const INTERNAL_SUFFIXES = ["localhost", "local", "internal", "localdomain", "home.arpa", "lan", "intranet", "corp"];

export interface UrlPolicy {
  // Local development only: lets loopback literals and localhost names through.
  allowLoopback: boolean;
}

const classNames: Record<Exclude<AddressClass, "public">, string> = {
  loopback: "a loopback address",
  private: "a private network address",
  link_local: "a link-local address",
  cgnat: "a carrier-grade NAT address",
  multicast: "a multicast address",
  metadata: "a cloud metadata endpoint",
  unspecified: "the unspecified address",
  reserved: "a reserved or documentation address",
};

function invalidUrl(detail: string): ProblemError {
  return new ProblemError("source_invalid_url", detail);
}

function forbidden(host: string, kind: Exclude<AddressClass, "public"> | "internal_name"): ProblemError {
  const what = kind === "internal_name" ? "a name that only resolves inside a private network" : classNames[kind];
  return new ProblemError("source_forbidden_address", `${host} is ${what}; only public internet addresses can be fetched`, {
    extensions: { host, address_class: kind },
  });
}

function checkPort(url: URL): void {
  if (url.port === "") return;
  const port = Number(url.port);
  if (port !== 80 && port !== 443 && port < MIN_CUSTOM_PORT) {
    throw invalidUrl(`port ${port} is not allowed; use 80, 443 or a port from ${MIN_CUSTOM_PORT} up`);
  }
}

function checkHost(hostname: string, policy: UrlPolicy): void {
  const kind = classifyAddress(hostname);
  if (kind !== null) {
    if (kind === "public" || (kind === "loopback" && policy.allowLoopback)) return;
    throw forbidden(hostname, kind);
  }
  const name = hostname.replace(/\.+$/, "");
  const isLocalhost = name === "localhost" || name.endsWith(".localhost");
  if (isLocalhost && policy.allowLoopback) return;
  const internal = !name.includes(".") || INTERNAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
  if (internal) throw forbidden(hostname, isLocalhost ? "loopback" : "internal_name");
}

export function checkUrl(url: string, policy: UrlPolicy): URL {
  if (url.length > MAX_URL_LENGTH) throw invalidUrl(`the URL is longer than ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidUrl("not an absolute URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw invalidUrl(`the ${parsed.protocol.slice(0, -1)} scheme is not allowed; use http or https`);
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw invalidUrl("credentials in the URL are not allowed; make the file publicly readable or use a signed URL");
  }
  checkPort(parsed);
  checkHost(parsed.hostname, policy);
  return parsed;
}
