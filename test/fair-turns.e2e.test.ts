// Fair turns through the real pair (npm start): account A floods the origin with heavy calls,
// then account B sends one ordinary call, and B must be answered while A's backlog still waits in
// the origin's queue. The test reads the order of events (A's calls queued at the origin before B
// is sent; the origin's queue and A's unanswered calls at the moment B is answered), never a time.
// Without turns, B would queue behind A's whole backlog and start only when its last call did.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { originHealthSchema, type PoolLoadReport } from "../contracts/origin/health.ts";
import { sharedContentPdf } from "../origin/pdf/test-support/generate-pdf.ts";
import { openPlatform } from "../scripts/lib/local-platform.ts";
import { openAccount } from "../workers/billing/open-account.ts";
import { createKey } from "../workers/keys/key-store.ts";
import { generatedFile } from "./fixtures/generated-files.ts";
import { activeKeyId, uploadFile } from "./support/edge-account.ts";

const edge = inject("edgeUrl");
const origin = inject("originUrl");
const keyA = inject("apiKey");
let keyB: string;

/** Pages of A's PDFs: each analysis is some hundreds of ms of one PDF thread, linear in pages. */
const HEAVY_PAGES = 1_500;

/**
 * How each of A's calls may end: answered in full, or, on a machine loaded enough to push a
 * queued call past its deadline, stopped there (422 processing_timeout, or 503 when it never
 * started). Either way it was answered, and B's turn did not depend on it.
 */
async function expectAnsweredOrStoppedAtDeadline(res: Response, check: (res: Response) => Promise<void>): Promise<void> {
  if (res.status === 200) return check(res);
  const problem = await res.json<{ type: string }>();
  expect([422, 503]).toContain(res.status);
  expect(["https://pixelpress.dev/problems/processing_timeout", "https://pixelpress.dev/problems/origin_unavailable"]).toContain(problem.type);
}

beforeAll(async () => {
  const platform = await openPlatform({ persistTo: inject("persistTo") });
  try {
    const account = await openAccount(platform.env.DB, { name: "fair-turns B", plan: "pro", balanceMicros: 10_000_000 });
    keyB = (await createKey(platform.env.DB, account.id, { name: "fair-turns" })).secret;
  } finally {
    await platform.dispose();
  }
});

async function originPools(): Promise<{ compute: PoolLoadReport; pdf: PoolLoadReport }> {
  const res = await fetch(`${origin}/healthz`);
  return originHealthSchema.parse(await res.json()).pools;
}

/** Polls the origin until `ready` holds for the pool's load; fails with the last load seen. */
async function untilPool(pool: "compute" | "pdf", ready: (load: PoolLoadReport) => boolean): Promise<void> {
  let last: PoolLoadReport | null = null;
  for (let i = 0; i < 400; i++) {
    last = (await originPools())[pool];
    if (ready(last)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the origin's ${pool} pool never reached the expected load: ${JSON.stringify(last)}`);
}

interface Sent {
  answered: boolean;
  res: Promise<Response>;
}

function send(url: string, init: RequestInit): Sent {
  const sent: Sent = { answered: false, res: fetch(url, init) };
  sent.res = sent.res.finally(() => {
    sent.answered = true;
  });
  return sent;
}

const post = (key: string, body: unknown): RequestInit => ({
  method: "POST",
  headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/**
 * Floods with `flood`, waits until the origin holds `minQueued` of them in `pool`'s queue, sends
 * B's call, and returns what was true when B was answered.
 */
async function floodThenOne(pool: "compute" | "pdf", flood: () => Sent[], minQueued: number, one: () => Sent) {
  const backlog = flood();
  await untilPool(pool, (load) => load.queued >= minQueued);
  const b = one();
  const bRes = await b.res;
  const queuedAtB = (await originPools())[pool].queued;
  const unansweredAtB = backlog.filter((s) => !s.answered).length;
  return { backlog, bRes, queuedAtB, unansweredAtB };
}

afterAll(async () => {
  // Nothing of a flood may outlive the file: the next e2e file shares this origin.
  await untilPool("pdf", (load) => load.busy === 0 && load.queued === 0);
  await untilPool("compute", (load) => load.busy === 0 && load.queued === 0);
});

describe("fair turns across accounts at the origin", () => {
  it("answers B's small PDF analysis while A's many-page analyses still wait in the PDF queue", async () => {
    const { size } = (await originPools()).pdf;
    // A may hold every PDF thread but one; twice the pool and more guarantees a queue behind them.
    const count = 2 * size + 2;
    const heavy = Buffer.from(await sharedContentPdf(HEAVY_PAGES)).toString("base64");
    const small = Buffer.from(await generatedFile("photo-placed-small.pdf")).toString("base64");

    const { backlog, bRes, queuedAtB, unansweredAtB } = await floodThenOne(
      "pdf",
      () => Array.from({ length: count }, () => send(`${edge}/v1/pdf/analyze`, post(keyA, { source: { base64: heavy } }))),
      count - size,
      () => send(`${edge}/v1/pdf/analyze`, post(keyB, { source: { base64: small } })),
    );

    expect(bRes.status, await bRes.clone().text()).toBe(200);
    expect((await bRes.json<{ composition: { pages: number } }>()).composition.pages).toBe(1);
    // B was answered while A's calls still waited for a thread: first in line would have been
    // served only after the last of A's had started, with the queue empty.
    expect(queuedAtB).toBeGreaterThan(0);
    expect(unansweredAtB).toBeGreaterThanOrEqual(size);
    for (const sent of backlog) {
      await expectAnsweredOrStoppedAtDeadline(await sent.res, async (res) => {
        expect((await res.json<{ composition: { pages: number } }>()).composition.pages).toBe(HEAVY_PAGES);
      });
    }
  });

  it("answers B's transform miss while A's transform misses still wait for a compute slot", async () => {
    const { size } = (await originPools()).compute;
    const count = 2 * size + 2;
    const photo = await generatedFile("landscape-1.jpg");
    const [fileA, keyIdA, fileB, keyIdB] = await Promise.all([
      uploadFile(edge, keyA, photo, { filename: "a.jpg", contentType: "image/jpeg" }),
      activeKeyId(edge, keyA),
      uploadFile(edge, keyB, photo, { filename: "b.jpg", contentType: "image/jpeg" }),
      activeKeyId(edge, keyB),
    ]);

    // q_auto is always made at the origin (its search scores several encodes); each width is a
    // miss of its own. The edge names the account with each call, so A's misses take A's turns.
    const { backlog, bRes, queuedAtB, unansweredAtB } = await floodThenOne(
      "compute",
      () => Array.from({ length: count }, (_, i) => send(`${edge}/v1/image/t/${keyIdA}/w_${800 - i * 10},q_auto,f_webp/${fileA}`, {})),
      count - size,
      () => send(`${edge}/v1/image/t/${keyIdB}/w_160,q_auto,f_webp/${fileB}`, {}),
    );

    expect(bRes.status, await bRes.clone().text()).toBe(200);
    expect(bRes.headers.get("X-Transform-Engine")).toBe("origin");
    expect(bRes.headers.get("Content-Type")).toBe("image/webp");
    expect(queuedAtB).toBeGreaterThan(0);
    expect(unansweredAtB).toBeGreaterThanOrEqual(size);
    for (const sent of backlog) {
      await expectAnsweredOrStoppedAtDeadline(await sent.res, async (res) => {
        expect(res.headers.get("Content-Type")).toBe("image/webp");
        await res.arrayBuffer();
      });
    }
  });
});
