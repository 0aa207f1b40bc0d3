import { createMessageBatch, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { fileKey, storeFile } from "../files/file-store.ts";
import { consumeJobQueue } from "../jobs/queue-consumer.ts";
import { jobRunners } from "../jobs/job-runners.ts";
import { api, seedCaller, type TestCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";

// Every route whose answer carries a link the edge made, called with a forged Host header: no link
// may name the forged host. The routes are found in /openapi.json (any response field named like
// a URL), so a new route that returns a link fails here until it is swept too.
const FORGED = "evil.example";
const PUBLIC_ORIGIN = "http://api.test";

/** Response fields whose URL the caller gave (a webhook, an origin's base, purged URLs): not links the edge makes. */
const ECHOED_FIELDS = new Set([
  "PUT /v1/account/webhook .url",
  "DELETE /v1/account/webhook .url",
  "GET /v1/jobs/{job_id} .webhook.url",
  "POST /v1/jobs/{job_id}/cancel .webhook.url",
  "POST /v1/origins .base_url",
  "GET /v1/origins .data[].base_url",
  "DELETE /v1/origins/{name} .origin.base_url",
  "DELETE /v1/origins/{name} .purged.cdn.urls_purged",
  "DELETE /v1/origins/{name} .purged.cdn.urls_not_purged",
  "POST /v1/presets .purged.cdn.urls_purged",
  "POST /v1/presets .purged.cdn.urls_not_purged",
  "DELETE /v1/presets/{name} .purged.cdn.urls_purged",
  "DELETE /v1/presets/{name} .purged.cdn.urls_not_purged",
  "POST /v1/purge .cdn.urls_purged",
  "POST /v1/purge .cdn.urls_not_purged",
]);

type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[] };
interface Document {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>;
  components: { schemas: Record<string, Schema> };
}

function urlFields(document: Document, schema: Schema | undefined, at: string, seen: Set<Schema>): string[] {
  if (!schema) return [];
  if (schema.$ref) return urlFields(document, document.components.schemas[schema.$ref.split("/").pop()!], at, seen);
  if (seen.has(schema)) return [];
  seen.add(schema);
  const fields = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].flatMap((part) => urlFields(document, part, at, seen));
  fields.push(...urlFields(document, schema.items, `${at}[]`, seen));
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (/url/i.test(name)) fields.push(`${at}.${name}`);
    fields.push(...urlFields(document, property, `${at}.${name}`, seen));
  }
  return fields;
}

/** "METHOD /path" of every operation whose 2xx answer has a URL field the edge makes. */
function linkingOperations(document: Document): string[] {
  const found = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${path}`;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!status.startsWith("2")) continue;
        const fields = Object.values(response.content ?? {}).flatMap((media) => urlFields(document, media.schema, "", new Set()));
        if (fields.some((field) => !ECHOED_FIELDS.has(`${name} ${field}`))) found.add(name);
      }
    }
  }
  return [...found].sort();
}

/** Fails on any absolute URL in the answer's body or headers that is not on the public base URL. */
async function expectNoForgedLink(operation: string, res: Response): Promise<void> {
  expect(res.status, operation).toBeLessThan(300);
  const text = [await res.text(), ...[...res.headers].map(([name, value]) => `${name}: ${value}`)].join("\n");
  expect(text, operation).not.toContain(FORGED);
  for (const url of text.match(/https?:\/\/[^\s"'<>\\]+/g) ?? []) {
    if (url.includes("/v1/") || url.includes("/cdn-cgi/")) expect(new URL(url).origin, `${operation}: ${url}`).toBe(PUBLIC_ORIGIN);
  }
}

const forged = (path: string, caller: TestCaller, init: { method?: string; json?: unknown } = {}) => api(path, { ...init, key: caller, host: FORGED });

async function readyFile(caller: TestCaller): Promise<string> {
  const body = await generatedBytes("rgb.png");
  const record = await storeFile(env, { accountId: caller.accountId, kind: "source", body, size: body.length, contentType: "image/png", expiresAt: Date.now() + 3_600_000 });
  return record.id;
}

const WORKBOOK = { sheets: [{ name: "S", columns: [{ key: "a", header: "A", type: "string" }], rows: [["a"]] }] };

async function asyncWorkbookJob(caller: TestCaller): Promise<string> {
  const accepted = await forged("/v1/xlsx/generate", caller, { json: { ...WORKBOOK, mode: "async" } });
  expect(accepted.status).toBe(202);
  return (await accepted.json<{ job_id: string }>()).job_id;
}

const sweep: Record<string, (caller: TestCaller) => Promise<Response>> = {
  "GET /v1/files": (caller) => readyFile(caller).then(() => forged("/v1/files", caller)),
  "POST /v1/files": async (caller) => forged("/v1/files", caller, { json: { source: { base64: encodeBase64(await generatedBytes("rgb.png")) } } }),
  "GET /v1/files/{file_id}": async (caller) => forged(`/v1/files/${await readyFile(caller)}`, caller),
  "PATCH /v1/files/{file_id}": async (caller) => forged(`/v1/files/${await readyFile(caller)}`, caller, { method: "PATCH", json: { expires_at: null } }),
  "POST /v1/files/{file_id}/ack": async (caller) => forged(`/v1/files/${await readyFile(caller)}/ack`, caller, { method: "POST" }),
  "POST /v1/uploads": (caller) => forged("/v1/uploads", caller, { json: { content_type: "image/png", size_bytes: 3 } }),
  "POST /v1/uploads/{file_id}/complete": async (caller) => {
    const created = await (await api("/v1/uploads", { key: caller, json: { content_type: "image/png", size_bytes: 3 } })).json<{ file_id: string }>();
    await env.FILES.put(fileKey(caller.accountId, created.file_id), new Uint8Array(3), { httpMetadata: { contentType: "image/png" } });
    return forged(`/v1/uploads/${created.file_id}/complete`, caller, { method: "POST" });
  },
  "POST /v1/image/sign": async (caller) => {
    expect((await api(`/v1/keys/${caller.keyId}/signing-secret`, { key: caller, method: "POST" })).status).toBe(200);
    return forged("/v1/image/sign", caller, { json: { key_id: caller.keyId, source: await readyFile(caller), transforms: ["w_12"] } });
  },
  "POST /v1/image/optimize": async (caller) =>
    forged("/v1/image/optimize", caller, { json: { source: { base64: encodeBase64(await generatedBytes("rgb.png")) }, options: { format: "webp" } } }),
  "POST /v1/image/batch": async (caller) =>
    forged("/v1/image/batch", caller, { json: { images: [{ ref: "a", source: { file_id: await readyFile(caller) } }], options: { format: "webp" } } }),
  "POST /v1/pdf/compress": async (caller) =>
    forged("/v1/pdf/compress", caller, { json: { source: { base64: encodeBase64(await generatedBytes("photo-full-page.pdf")) }, options: { profile: "ebook" } } }),
  "POST /v1/xlsx/generate": (caller) => forged("/v1/xlsx/generate", caller, { json: WORKBOOK }),
  "GET /v1/jobs/{job_id}": async (caller) => {
    const jobId = await asyncWorkbookJob(caller);
    await consumeJobQueue(createMessageBatch("pixelpress-jobs", [{ id: "m", timestamp: new Date(), attempts: 1, body: { kind: "job", job_id: jobId, account_id: caller.accountId } }]), env, jobRunners);
    const job = await forged(`/v1/jobs/${jobId}`, caller);
    const { result } = await job.clone().json<{ result: { url: string } | null }>();
    expect(new URL(result!.url).origin).toBe(PUBLIC_ORIGIN);
    return job;
  },
  "POST /v1/jobs/{job_id}/cancel": async (caller) => forged(`/v1/jobs/${await asyncWorkbookJob(caller)}/cancel`, caller, { method: "POST" }),
};

describe("no link names the request's Host", () => {
  it("sweeps every route of /openapi.json whose answer carries a link", async () => {
    const document = await (await api("/openapi.json")).json<Document>();
    expect(Object.keys(sweep).sort()).toEqual(linkingOperations(document));
  });

  for (const [operation, call] of Object.entries(sweep)) {
    it(`${operation} links on PUBLIC_BASE_URL when the Host header is forged`, async () => {
      await expectNoForgedLink(operation, await call(await seedCaller()));
    });
  }

  it("serves the reference page with its try-it server on PUBLIC_BASE_URL", async () => {
    await expectNoForgedLink("GET /docs", await api("/docs", { host: FORGED }));
  });
});
