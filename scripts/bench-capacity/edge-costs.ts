// Edge CPU per transform hit and per miss, measured on the workerd processes of a real pair
// started as `npm start` starts it. wrangler dev puts its own proxy worker in front of the edge
// (scripts/lib/direct-workerd.ts measured it), and its CPU is counted here too, so these are
// upper bounds on what the edge itself spends.
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { jpegImage } from "../../origin/pdf/test-support/generate-pdf.ts";
import { startServicePair } from "../../test/support/service-pair.ts";
import { edgeCpuSeconds } from "../lib/process-cpu.ts";

export interface EdgeCosts {
  hitCpuMs: number;
  missCpuMs: number;
  hits: number;
  misses: number;
}

async function fetchAll(url: string): Promise<Response> {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res;
}

export async function measureEdgeCosts(options: { hits: number; misses: number }): Promise<EdgeCosts> {
  const pair = await startServicePair();
  try {
    const source = (await jpegImage("source", 1224, 816, 90)).stream;
    const stored = await fetch(`${pair.edgeUrl}/v1/files`, {
      method: "POST",
      headers: { Authorization: `Bearer ${pair.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ source: { base64: encodeBase64(source) }, expires_at: null }),
    });
    if (stored.status !== 201) throw new Error(`storing the source: ${stored.status} ${await stored.text()}`);
    const { file_id } = await stored.json<{ file_id: string }>();
    const url = (transform: string) => `${pair.edgeUrl}/v1/image/t/${pair.keyId}/${transform}/${file_id}`;
    const port = Number(new URL(pair.edgeUrl).port);

    await fetchAll(url("w_399,f_webp"));
    const missStart = edgeCpuSeconds(port);
    for (let i = 0; i < options.misses; i++) {
      const res = await fetchAll(url(`w_${300 + i},f_webp`));
      if (res.status !== 200 || res.headers.get("X-Cache") === "HIT") throw new Error(`expected a miss: ${res.status} ${res.headers.get("X-Cache")}`);
    }
    const missCpuMs = ((edgeCpuSeconds(port) - missStart) * 1000) / options.misses;

    for (let i = 0; i < 3; i++) await fetchAll(url("w_300,f_webp"));
    const hitStart = edgeCpuSeconds(port);
    for (let i = 0; i < options.hits; i++) {
      const res = await fetchAll(url("w_300,f_webp"));
      if (res.headers.get("X-Cache") !== "HIT") throw new Error(`expected a hit: ${res.status} ${res.headers.get("X-Cache")}`);
    }
    const hitCpuMs = ((edgeCpuSeconds(port) - hitStart) * 1000) / options.hits;
    return { hitCpuMs, missCpuMs, hits: options.hits, misses: options.misses };
  } finally {
    await pair.stop();
  }
}
