// The large-file section of bench:pdf: a generated ~150 MB photo PDF through a fresh edge +
// origin pair started exactly like `npm start`, by presigned upload and an async compress job,
// with the origin's peak RSS read from /proc afterwards. A fresh pair means the origin's VmHWM
// covers start-up and this one job only.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as mupdf from "mupdf";
import { largePdf } from "../../test/support/large-pdf.ts";
import { compressPdfByUploadJob, downloadTo } from "../../test/support/pdf-upload-job.ts";
import { startServicePair } from "../../test/support/service-pair.ts";
import { peakRssBytes, pidListeningOn, processGroupPeaks } from "./process-memory.ts";
import { bytes, fixed } from "./print-table.ts";

const LARGE_INPUT_MIN_BYTES = 150 * 1024 * 1024;
const ORIGIN_PEAK_RSS_TARGET_BYTES = 1024 * 1024 * 1024;
const MIB = 1024 * 1024;

const mib = (n: number) => `${fixed(n / MIB, 1)} MiB`;
const seconds = (ms: number) => `${fixed(ms / 1000, 1)} s`;

function pageCountOf(file: string): number {
  const doc = mupdf.Document.openDocument(fs.readFileSync(file), "application/pdf");
  const pages = doc.countPages();
  doc.destroy();
  return pages;
}

export async function benchLargeFile(): Promise<void> {
  console.log(`\nLarge file (issue 7): a generated photo PDF of at least ${mib(LARGE_INPUT_MIN_BYTES)}, profile ebook, through a fresh pair (presigned upload, async job)`);
  const generated = performance.now();
  const input = await largePdf(LARGE_INPUT_MIN_BYTES);
  console.log(`  input          ${input.path}: ${bytes(input.bytes)} bytes, ${input.pages} pages (ready in ${seconds(performance.now() - generated)}; cached in the temp directory)`);
  const pair = await startServicePair();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-pdf-large-"));
  try {
    const originPid = pidListeningOn(Number(new URL(pair.originUrl).port));
    const originAtStart = peakRssBytes(originPid);
    const run = await compressPdfByUploadJob(pair.edgeUrl, pair.apiKey, input.path, { profile: "ebook" });
    const originPeak = peakRssBytes(originPid);
    const edgePeaks = processGroupPeaks(pidListeningOn(Number(new URL(pair.edgeUrl).port)));
    console.log(`  upload         ${seconds(run.uploadMs)} (presigned PUT streamed from disk)`);
    console.log(`  job            ${run.status} in ${seconds(run.jobMs)} (submit to end, polled)`);
    if (run.status === "succeeded" && run.result !== undefined) {
      const outputPath = path.join(workDir, "output.pdf");
      const outputBytes = await downloadTo(run.result.url!, outputPath);
      const pages = pageCountOf(outputPath);
      console.log(`  output         ${bytes(outputBytes)} bytes, ratio ${fixed(outputBytes / input.bytes, 3)}, ${pages} pages${pages === input.pages ? "" : " (PAGE COUNT DIFFERS)"}, charged ${run.result.billing.charged_micros} micros`);
    } else {
      console.log(`  error          ${JSON.stringify(run.error)}`);
    }
    const met = originPeak < ORIGIN_PEAK_RSS_TARGET_BYTES ? "met" : "NOT MET";
    console.log(`  origin peak RSS ${mib(originPeak)} (VmHWM of pid ${originPid}; ${mib(originAtStart)} after start-up)  target: < ${mib(ORIGIN_PEAK_RSS_TARGET_BYTES)} ${met}`);
    const edgeFigures = edgePeaks
      .filter((peak) => peak.command === "workerd")
      .map((peak) => mib(peak.peakRssBytes))
      .join(", ");
    console.log(`  edge workerd peak RSS: ${edgeFigures} (wrangler dev's proxy and runtime, local R2/D1/Queues simulators included; not the Workers isolate limit)`);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
    await pair.stop();
  }
}
