// Headless Chromium for the browser end-to-end tests: the Debian build, offline, launched once
// per test file, with a loopback server for the pages a test writes.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

// No sandbox (containers), no GPU, and nothing of Chromium's own traffic (updates, sync, QUIC)
// on a machine whose only network is loopback.
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export interface ChromiumHarness {
  /** The browser; launched before the file's own beforeAll hooks run. */
  readonly browser: Browser;
  /** Serves `html` on loopback until the file's tests end, and returns the page's URL. */
  servePage(html: string): Promise<string>;
}

/** Launches Chromium before the calling test file's tests and closes it, and every page served, after them. */
export function useChromium(): ChromiumHarness {
  let browser: Browser | undefined;
  const servers: Server[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  });
  return {
    get browser() {
      if (browser === undefined) throw new Error("Chromium is launched in beforeAll; use it from a hook or a test");
      return browser;
    },
    async servePage(html) {
      const server = createServer((_req, res) => {
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        res.end(html);
      });
      servers.push(server);
      await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    },
  };
}

/** What a test reads of each <img> on a page once it has decoded (or failed to). */
export interface ImageOnPage {
  id: string;
  currentSrc: string;
  complete: boolean;
  naturalWidth: number;
  naturalHeight: number;
  clientWidth: number;
  clientHeight: number;
}

/** Every <img> of the page, in document order, after waiting for each to decode. */
export function imagesOnPage(tab: Page): Promise<ImageOnPage[]> {
  return tab.$$eval("img", (elements) =>
    Promise.all(
      elements.map(async (element) => {
        // The part of HTMLImageElement read here (this project's types have no DOM library).
        const img = element as unknown as ImageOnPage & { decode(): Promise<void> };
        await img.decode().catch(() => undefined);
        return { id: img.id, currentSrc: img.currentSrc, complete: img.complete, naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight, clientWidth: img.clientWidth, clientHeight: img.clientHeight };
      }),
    ),
  );
}
