// How an origin path's derivatives are named where a file's are named by its file id (the
// derivatives table, their R2 keys, the ledger's charge key): `{origin id}/{path digest}/{version}`.
// The version is a digest of the original's bytes, so changed bytes are a new source (new
// derivatives, charged anew), the same bytes fetched again are the same source (never charged
// twice), and everything derived from a path, or from an origin, shares a prefix.
import { sha256Hex } from "../../contracts/crypto/sha256.ts";

// `{origin id}/{24 hex}/{20 hex}`: what originSourceId makes, and nothing a file id can be.
const ORIGIN_SOURCE_ID = /^orig_[^/]+\/[0-9a-f]{24}\/[0-9a-f]{20}$/;

export function isOriginSourceId(sourceId: string): boolean {
  return ORIGIN_SOURCE_ID.test(sourceId);
}

export function originPrefix(originId: string): string {
  return `${originId}/`;
}

export async function pathPrefix(originId: string, path: string): Promise<string> {
  return `${originPrefix(originId)}${(await sha256Hex(path)).slice(0, 24)}/`;
}

export async function originSourceId(originId: string, path: string, version: string): Promise<string> {
  return `${await pathPrefix(originId, path)}${version}`;
}

/** The version of an original: its bytes' digest, short enough for keys and long enough never to collide by chance. */
export async function versionOf(bytes: Uint8Array): Promise<string> {
  return (await sha256Hex(bytes)).slice(0, 20);
}
