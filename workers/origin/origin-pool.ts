// The origin instances a call may go to, from configuration:
// - ORIGIN_URL empty: ORIGIN_INSTANCES Cloudflare Containers instances (wrangler.toml's
//   max_instances is held equal to it by a test);
// - ORIGIN_URL set: the comma-separated origins it lists, or, when ORIGIN_DIRECTORY_URL is set,
//   the origins that directory lists now (re-read every DIRECTORY_TTL_MS, so instances come and go
//   without a redeploy; ORIGIN_URL stands in until it first answers, and whenever it cannot).
import { originDirectorySchema } from "../../contracts/origin/directory.ts";
import type { Bindings } from "../env.ts";

export type PoolEnv = Pick<Bindings, "ORIGIN_URL" | "ORIGIN_CONTAINER"> & Partial<Pick<Bindings, "ORIGIN_INSTANCES" | "ORIGIN_DIRECTORY_URL">>;

export interface OriginInstance {
  /** What the chooser remembers it by: its URL, or its Containers instance name. */
  key: string;
  /** What /healthz calls it: never a host or port. */
  label: string;
  send(path: string, init: RequestInit): Promise<Response>;
}

export const DIRECTORY_TTL_MS = 1_000;
const DIRECTORY_TIMEOUT_MS = 1_000;

/** ORIGIN_INSTANCES, checked: a pool of no instances, or of a number that is not one, is a configuration error. */
export function containerInstanceCount(value: string | undefined): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw new Error(`ORIGIN_INSTANCES must be a positive integer, not ${JSON.stringify(value)}`);
  return count;
}

function urlInstance(url: string, index: number): OriginInstance {
  return { key: url, label: `origin-${index}`, send: (path, init) => fetch(new Request(new URL(path, url), init)) };
}

function containerInstances(namespace: NonNullable<Bindings["ORIGIN_CONTAINER"]>, count: number): OriginInstance[] {
  return Array.from({ length: count }, (_, index) => {
    const name = `origin-${index}`;
    return {
      key: name,
      label: name,
      send: (path, init) => namespace.get(namespace.idFromName(name)).fetch(new Request(new URL(path, "http://origin.internal"), init)),
    };
  });
}

function listedUrls(list: string): string[] {
  return list
    .split(",")
    .map((url) => url.trim())
    .filter((url) => url !== "");
}

// Per isolate: the directory's last answer. The first call to find it stale reads it again while
// the others go on with the list they have: no call waits on another request's read (workerd
// does not let a request await I/O that another one started).
const directories = new Map<string, { readAt: number; urls: string[] | null }>();

async function readDirectory(directoryUrl: string): Promise<string[]> {
  const res = await fetch(directoryUrl, { signal: AbortSignal.timeout(DIRECTORY_TIMEOUT_MS) });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`answered ${res.status}`);
  }
  return originDirectorySchema.parse(await res.json()).origins;
}

async function directoryUrls(directoryUrl: string): Promise<string[] | null> {
  const entry = directories.get(directoryUrl) ?? { readAt: 0, urls: null };
  directories.set(directoryUrl, entry);
  if (Date.now() - entry.readAt < DIRECTORY_TTL_MS) return entry.urls;
  entry.readAt = Date.now();
  try {
    entry.urls = await readDirectory(directoryUrl);
  } catch (error) {
    // The last list it gave (or ORIGIN_URL's) keeps serving through the directory's outage.
    console.warn(`origin directory did not answer (${error instanceof Error ? error.message : String(error)}); keeping the last list`);
  }
  return entry.urls;
}

/** The instances a call may go to now, in a stable order. */
export async function originInstances(env: PoolEnv): Promise<OriginInstance[]> {
  if (!env.ORIGIN_URL && env.ORIGIN_CONTAINER) return containerInstances(env.ORIGIN_CONTAINER, containerInstanceCount(env.ORIGIN_INSTANCES));
  const listed = env.ORIGIN_DIRECTORY_URL ? await directoryUrls(env.ORIGIN_DIRECTORY_URL) : null;
  const urls = listed ?? listedUrls(env.ORIGIN_URL);
  if (urls.length === 0) throw new Error("no origin configured: set ORIGIN_URL, or leave it empty with the ORIGIN_CONTAINER binding");
  return urls.map(urlInstance);
}
