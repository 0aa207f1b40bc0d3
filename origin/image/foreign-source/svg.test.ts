import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { svgToPng } from "./svg.ts";
import { withoutExternalReferences } from "./svg-drawing.ts";

const MAX_PIXELS = 100_000_000;
const svg = (body: string, size = 24) =>
  new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${size}" height="${size}" viewBox="0 0 24 24">${body}</svg>`);

async function greyRow(png: Uint8Array, row: number) {
  const { data, info } = await sharp(png).flatten({ background: "#ffffff" }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { values: [...data.subarray(row * info.width, (row + 1) * info.width)], info };
}

describe("svgToPng", () => {
  it("draws the vector at the asked size: an edge stays one or two pixels soft, not an enlarged 24-pixel blur", async () => {
    const png = await svgToPng(svg(`<rect x="0" y="0" width="12" height="24" fill="#000"/>`), { width: 800 }, MAX_PIXELS);
    const { values, info } = await greyRow(png, 400);
    expect([info.width, info.height]).toEqual([800, 800]);
    const soft = values.filter((v) => v > 16 && v < 240).length;
    expect(soft).toBeLessThanOrEqual(2);
    expect(values[100]).toBeLessThan(16);
    expect(values[700]).toBeGreaterThan(240);
  });

  it("scales the content of a root without a viewBox with the raster", async () => {
    const bare = new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect width="12" height="24"/></svg>`);
    const { values, info } = await greyRow(await svgToPng(bare, { width: 240 }, MAX_PIXELS), 120);
    expect(info.width).toBe(240);
    expect([values[100]! < 16, values[140]! > 240]).toEqual([true, true]);
  });

  it("keeps the declared size when no size is asked", async () => {
    const meta = await sharp(await svgToPng(svg(`<circle cx="12" cy="12" r="10"/>`, 64), {}, MAX_PIXELS)).metadata();
    expect([meta.width, meta.height]).toEqual([64, 64]);
  });

  it("scales a bomb's declared size down to the pixel limit instead of allocating it", async () => {
    const meta = await sharp(await svgToPng(svg(`<circle cx="12" cy="12" r="10"/>`, 200_000), {}, 4_000_000)).metadata();
    expect(meta.width * meta.height).toBeLessThanOrEqual(4_000_000);
    expect(meta.width).toBeGreaterThan(1000);
  });

  it("never requests anything an SVG references, however it spells the reference", async () => {
    const requests: string[] = [];
    const server = createServer((request, response) => {
      requests.push(request.url ?? "");
      response.end();
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const hostile = svg(
        `<style>@import url(${base}/import.css); rect { fill: url('${base}/fill.svg#p'); }</style>` +
          `<image href="${base}/href.png" width="24" height="24"/>` +
          `<image xlink:href='${base}/xlink.png' width="24" height="24"/>` +
          `<use href="${base}/use.svg#shape"/>` +
          `<rect width="24" height="24" style="fill: url(${base}/style.svg#p)"/>`,
      );
      const png = await svgToPng(hostile, { width: 48 }, MAX_PIXELS);
      expect((await sharp(png).metadata()).width).toBe(48);
      await new Promise((done) => setTimeout(done, 200));
      expect(requests).toEqual([]);
    } finally {
      server.close();
    }
  });

  it("keeps references inside the document and inline data", () => {
    const kept = `<use href="#shape"/><image xlink:href="data:image/png;base64,AAAA"/><rect fill="url(#gradient)"/>`;
    expect(withoutExternalReferences(kept)).toBe(kept);
    expect(withoutExternalReferences(`<image href="https://example.com/a.png"/>`)).toBe(`<image href=""/>`);
  });

  it("refuses entity declarations and deep nesting with a 422 before parsing", async () => {
    const laughs = new TextEncoder().encode(`<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>`);
    await expect(svgToPng(laughs, {}, MAX_PIXELS)).rejects.toMatchObject({ slug: "image_unreadable", status: 422 });
    const deep = svg(`${"<g>".repeat(300)}<rect width="1" height="1"/>${"</g>".repeat(300)}`);
    const refused = await svgToPng(deep, {}, MAX_PIXELS).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProblemError);
    expect((refused as ProblemError).message).toMatch(/nest more than/);
  });

  it("refuses bytes that are not an SVG document as unreadable", async () => {
    await expect(svgToPng(new TextEncoder().encode("<svg><not closed"), {}, MAX_PIXELS)).rejects.toMatchObject({ slug: "image_unreadable" });
  });
});
