import { env } from "cloudflare:test";

/**
 * A generated test input by its name in test/fixtures/generated-files.ts. workerd can neither run
 * the generators nor read the host's files: global-origin.ts serves them over loopback.
 */
export async function generatedBytes(name: string): Promise<Uint8Array> {
  const res = await fetch(`${env.TEST_GENERATED_FILES_URL}/${name}`);
  if (!res.ok) throw new Error(`generated file ${name}: ${res.status} ${await res.text()}`);
  return new Uint8Array(await res.arrayBuffer());
}
