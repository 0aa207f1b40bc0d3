import { env } from "cloudflare:test";

/** workerd cannot read the host filesystem: corpus files come over loopback from global-origin.ts. */
export async function corpusBytes(path: string): Promise<Uint8Array> {
  const res = await fetch(`${env.TEST_CORPUS_URL}/${path}`);
  if (!res.ok) throw new Error(`corpus file ${path}: ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}
