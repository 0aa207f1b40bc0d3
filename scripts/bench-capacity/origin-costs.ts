// Origin CPU per operation, measured in this process on the engines the origin's routes call:
// process.cpuUsage counts every thread of the process (libvips', the PDF worker threads', the
// metric's), so it is the CPU an origin instance spends on the call, not the wall time.
import { Writable } from "node:stream";
import { imageOptionsSchema } from "../../contracts/image-options.ts";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import { xlsxRequestSchema } from "../../contracts/xlsx-request.ts";
import { processImage } from "../../origin/image/process-image.ts";
import { compressPdf } from "../../origin/pdf/compress-pdf.ts";
import { buildPdf, jpegImage } from "../../origin/pdf/test-support/generate-pdf.ts";
import { generateXlsx } from "../../origin/xlsx/generate-xlsx.ts";

export interface OriginCost {
  name: string;
  /** Median CPU milliseconds of the runs. */
  cpuMs: number;
  runs: number[];
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function cpuMsOf(run: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

async function measured(name: string, rounds: number, run: () => Promise<unknown>): Promise<OriginCost> {
  await run();
  const runs: number[] = [];
  for (let i = 0; i < rounds; i++) runs.push(await cpuMsOf(run));
  return { name, cpuMs: median(runs), runs };
}

/** A 20-page photo book: each US Letter page draws a photo of its own across its width at 300 DPI. */
async function photoBookPdf(pages: number): Promise<Uint8Array> {
  const images = await Promise.all(Array.from({ length: pages }, (_, i) => jpegImage(`P${i}`, 2550, 1785, 92)));
  return buildPdf(images, images.map((image) => [{ image: image.name, x: 0, y: 363.6, width: 612, height: 428.4 }]));
}

/** 20,000 rows of 10 columns, strings and numbers: the 200,000-cell workbook. */
function workbookRequest() {
  const columns = Array.from({ length: 10 }, (_, c) => ({ key: `c${c}`, header: `Column ${c}`, type: c % 2 === 0 ? "string" : "number" }));
  const rows = Array.from({ length: 20_000 }, (_, r) => columns.map((_, c) => (c % 2 === 0 ? `item ${r}-${c}` : r * 1.5 + c)));
  return xlsxRequestSchema.parse({ filename: "capacity.xlsx", sheets: [{ name: "Data", columns, rows }] });
}

export async function measureOriginCosts(rounds: number): Promise<OriginCost[]> {
  const megapixel = (await jpegImage("1mp", 1224, 816, 90)).stream;
  const twelveMegapixel = (await jpegImage("12mp", 4240, 2832, 90)).stream;
  const book = await photoBookPdf(20);
  const workbook = workbookRequest();
  const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });
  return [
    await measured("1 MP JPEG -> 400 px WebP (a transform miss)", rounds, () => processImage(megapixel, imageOptionsSchema.parse({ width: 400, format: "webp" }))),
    await measured("12 MP JPEG optimize (q76, same size)", rounds, () => processImage(twelveMegapixel, imageOptionsSchema.parse({}))),
    await measured("20-page photo PDF compress (ebook)", rounds, () => compressPdf(book, pdfCompressOptionsSchema.parse({ profile: "ebook" }))),
    await measured("200,000-cell xlsx", rounds, () => generateXlsx(workbook, discard())),
  ];
}
