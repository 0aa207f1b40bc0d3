import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { problemCatalogue } from "../contracts/problems/catalogue.ts";
import { SCALAR_BUNDLE_PATH } from "../workers/docs/scalar-bundle.ts";
import { useChromium } from "./support/browser.ts";

const edge = inject("edgeUrl");
const chromium = useChromium();
let context: BrowserContext;
let page: Page;
const leftTheMachine: string[] = [];

beforeAll(async () => {
  context = await chromium.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  // No internet: everything but the service on loopback is refused, as on a plane.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(edge)) return route.continue();
    leftTheMachine.push(url);
    return route.abort();
  });
  page = await context.newPage();
  await page.goto(`${edge}/docs`);
});

describe("/docs in headless Chromium", () => {
  it("renders every path of the live OpenAPI document, with nothing fetched from elsewhere", async () => {
    const spec = await (await fetch(`${edge}/openapi.json`)).json<{ paths: Record<string, unknown> }>();
    await page.getByText("Problem types").first().waitFor();
    const text = await page.locator("body").innerText();
    const missing = Object.keys(spec.paths).filter((path) => !text.includes(path));
    expect(missing).toEqual([]);
    expect(Object.keys(spec.paths).length).toBeGreaterThanOrEqual(16);
    expect(leftTheMachine).toEqual([]);
  });

  it("serves Scalar's pinned bundle itself, byte for byte, cached as immutable", async () => {
    const res = await fetch(`${edge}${SCALAR_BUNDLE_PATH}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
    const installed = readFileSync("node_modules/@scalar/api-reference/dist/browser/standalone.js");
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(installed));
  });

  it("sends GET /v1/account from the page with a pasted key and shows the answer", async () => {
    await page.getByPlaceholder("Token").first().fill(inject("apiKey"));
    const operation = page.locator('[id$="/GET/v1/account"]');
    await operation.scrollIntoViewIfNeeded();
    await operation.getByRole("button", { name: /Test Request/ }).click();
    const answered = page.waitForResponse((response) => response.url() === `${edge}/v1/account`);
    await page.getByRole("button", { name: /^Send/ }).first().click();
    const response = await answered;
    expect(response.request().headers().authorization).toBe(`Bearer ${inject("apiKey")}`);
    expect(response.status()).toBe(200);
    expect(((await response.json()) as { account_id: string }).account_id).toBe(inject("accountId"));
    await expect.poll(() => page.locator("body").innerText(), { timeout: 10_000 }).toContain(`"account_id": "${inject("accountId")}"`);
    await expect.poll(() => page.locator("body").innerText()).toContain("200 OK");
  });

  it("links each problem type to a page that explains it", async () => {
    const docs = await context.newPage();
    await docs.goto(`${edge}/docs`);
    await docs.getByRole("link", { name: "idempotency_key_reused" }).click();
    await docs.waitForURL(`${edge}/problems/idempotency_key_reused`);
    const text = await docs.locator("body").innerText();
    expect(text).toContain(problemCatalogue.idempotency_key_reused.title);
    expect(text).toContain(problemCatalogue.idempotency_key_reused.description.replace(/`/g, ""));
    await docs.close();
  });
});
