// A stand-in for api.cloudflare.com's purge endpoint, on loopback in the test runner's process
// (workerd cannot listen), so the edge tests see the exact requests a purge sends. It records
// every request by zone id and answers by the zone id's first word, so each test picks its case
// with a zone id of its own and reads back only its own requests:
//   ok-…        success, as Cloudflare answers
//   denied-…    403 with Cloudflare's authentication error
//   limited-…   the first call succeeds, every later one is 429
//   garbled-…   200 with an HTML body
// GET /recorded/{zone id} answers what that zone's requests were.
export interface RecordedPurge {
  method: string;
  path: string;
  authorization: string | null;
  contentType: string | null;
  body: unknown;
}

const recorded = new Map<string, RecordedPurge[]>();

function envelope(success: boolean, errors: { code: number; message: string }[], status: number): Response {
  return Response.json({ success, errors, messages: [], result: success ? { id: crypto.randomUUID() } : null }, { status });
}

export async function cloudflareApiStandIn(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const asked = /^\/recorded\/([^/]+)$/.exec(url.pathname);
  if (asked && request.method === "GET") return Response.json(recorded.get(decodeURIComponent(asked[1]!)) ?? []);

  const purge = /^\/client\/v4\/zones\/([^/]+)\/purge_cache$/.exec(url.pathname);
  if (!purge) return envelope(false, [{ code: 7003, message: "Could not route to this path" }], 404);
  const zoneId = decodeURIComponent(purge[1]!);
  const text = await request.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Kept as text: the test sees what was sent.
  }
  const calls = recorded.get(zoneId) ?? [];
  calls.push({ method: request.method, path: url.pathname, authorization: request.headers.get("Authorization"), contentType: request.headers.get("Content-Type"), body });
  recorded.set(zoneId, calls);

  if (zoneId.startsWith("denied-")) return envelope(false, [{ code: 10000, message: "Authentication error" }], 403);
  if (zoneId.startsWith("limited-") && calls.length > 1) return envelope(false, [{ code: 971, message: "Please wait and consider throttling your request speed" }], 429);
  if (zoneId.startsWith("garbled-")) return new Response("<html>Bad gateway</html>", { status: 200, headers: { "Content-Type": "text/html" } });
  return envelope(true, [], 200);
}
