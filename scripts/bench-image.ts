// npm run bench:image [-- --part throughput|foreign|search|rss|text|faces|video|all] — the service path (/v1/image/optimize through edge and origin) against bare
// sharp in-process on the same inputs, in one run; then what a HEIC or SVG input costs beside the
// JPEG or PNG of the same picture; then the max_bytes search's encode counts and exactness; then
// origin RSS across 200 sequential images; then a text overlay's cost beside the same transform,
// face detection's CPU beside a JPEG encode, and animated GIFs as f_mp4 and f_webm
// (bench-image-video.ts). Prints figures and ratios; asserts none.
// The HEIC inputs are encoded at run time by `heif-enc` (Debian's libheif-examples; grids and bursts
// assembled by origin/image/test-support/heic-fixtures.ts): sharp writes no HEVC.
import fs from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import sharp, { type Sharp } from "sharp";
import { imageOptionsSchema, type ImageOptionsInput } from "../contracts/image-options.ts";
import { processImage } from "../origin/image/process-image.ts";
import { transformImage } from "../origin/image/transform-image.ts";
import { originTransformSchema } from "../contracts/origin/image-transform.ts";
import { encodeBase64 } from "../contracts/encoding/base64.ts";
import { corpusPath } from "../test/support/corpus-dir.ts";
import { startServicePair } from "../test/support/service-pair.ts";
import { chooseHeicDecoder } from "../origin/image/foreign-source/heic.ts";
import { gridHeic, heifEnc, heifEncPresent } from "../origin/image/test-support/heic-fixtures.ts";
import { faceDetectionCost } from "./bench-image/face-detection.ts";
import { treeCpuSeconds } from "./bench-image/tree-cpu.ts";
import { videoBench } from "./bench-image-video.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PARTS = ["throughput", "foreign", "search", "rss", "text", "faces", "video"] as const;
const { values: args } = parseArgs({ options: { part: { type: "string", default: "all" } } });
if (args.part !== "all" && !(PARTS as readonly string[]).includes(args.part)) throw new Error(`bench:image: --part ${PARTS.join("|")}|all`);
const runs = (part: (typeof PARTS)[number]) => args.part === "all" || args.part === part;

async function photo(width: number, height: number): Promise<Uint8Array> {
  // Photo-like content: smooth gradients under fine noise, as a camera JPEG would carry.
  const noise = await sharp({ create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } } })
    .blur(1.2)
    .raw()
    .toBuffer();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      noise[i] = (noise[i]! + (x * 255) / width) / 2;
      noise[i + 2] = (noise[i + 2]! + (y * 255) / height) / 2;
    }
  }
  return new Uint8Array(await sharp(noise, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer());
}

function graphicSvg(width: number, height: number): Uint8Array {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#f4f1ea"/>
    ${Array.from({ length: 40 }, (_, i) => `<circle cx="${(i * 97) % width}" cy="${(i * 53) % height}" r="${40 + (i % 7) * 20}" fill="hsl(${i * 37},70%,50%)" fill-opacity="0.7"/>`).join("")}
    <text x="50" y="200" font-size="160" font-family="sans-serif" fill="#222">PixelPress bench</text></svg>`;
  return new TextEncoder().encode(svg);
}

async function graphic(width: number, height: number): Promise<Uint8Array> {
  return new Uint8Array(await sharp(graphicSvg(width, height)).png().toBuffer());
}

/** The JPEG's picture as the HEIC a phone writes: one image, a grid of 512 px tiles, or a burst of `count` images. */
async function heicOf(jpeg: Uint8Array, layout: "single" | "grid" | { burst: number }): Promise<Uint8Array> {
  const png = new Uint8Array(await sharp(jpeg).png({ compressionLevel: 1 }).toBuffer());
  if (layout === "grid") return gridHeic(png, { tile: 512 }, HEIC_QUALITY);
  return heifEnc(Array.from({ length: layout === "single" ? 1 : layout.burst }, () => png), HEIC_QUALITY);
}
const HEIC_QUALITY = ["-q", "80"];

const TARGETS: { name: string; options: ImageOptionsInput; bare: (img: Sharp) => Sharp }[] = [
  { name: "jpeg q76", options: { width: 1600, format: "jpeg", quality: 76 }, bare: (i) => i.jpeg({ quality: 76, mozjpeg: true, progressive: false }) },
  { name: "webp q76", options: { width: 1600, format: "webp", quality: 76 }, bare: (i) => i.webp({ quality: 76 }) },
  { name: "avif q76", options: { width: 1600, format: "avif", quality: 76 }, bare: (i) => i.avif({ quality: 76, effort: 2, chromaSubsampling: "4:2:0" }) },
];

async function timed(run: () => Promise<unknown>, rounds: number): Promise<number> {
  await run();
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await run();
  return (performance.now() - started) / 1000;
}

function fmt(n: number, digits = 2): string {
  return n.toFixed(digits).padStart(8);
}

const inputs = [
  { name: "12 MP photo (JPEG)", bytes: await photo(4000, 3000) },
  { name: "3 MP graphic (PNG)", bytes: await graphic(2000, 1500) },
];

// The generated photo is mostly blurred noise, whose size curves are two to three times steeper
// than a camera's: the corpus's real photos are searched beside it, and the target is on the mean of all.
const searchSources = () => [
  inputs[0]!,
  ...["exif-orientation/Landscape_1.jpg", "exif-orientation/Portrait_1.jpg", "avif/kimono.avif", "avif/fox.png"].map((file) => ({
    name: file.split("/")[1]!,
    bytes: new Uint8Array(fs.readFileSync(corpusPath("img", file))),
  })),
];

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const pair = await startServicePair();
const headers = { Authorization: `Bearer ${pair.apiKey}`, "Content-Type": "application/json" };

/** The request body, built before any timing: encoding the client's upload is not the service's work. */
function requestBody(bytes: Uint8Array, options: ImageOptionsInput): string {
  return JSON.stringify({ source: { base64: encodeBase64(bytes) }, options });
}

async function viaService(body: string) {
  const res = await fetch(`${pair.edgeUrl}/v1/image/optimize`, { method: "POST", headers, body });
  if (res.status !== 200) throw new Error(`service answered ${res.status}: ${await res.text()}`);
  return res.json<{ stats: { output_bytes: number; encodes: number; quality: number | null } }>();
}

/** Per image through /v1/image/optimize: the median seconds of ROUNDS after one warm-up, and the pair's mean CPU seconds (null off Linux). */
interface ServiceCost {
  seconds: number;
  cpu: number | null;
}

/**
 * Each body's requests through the service, the bodies taking turns round by round, so a change in
 * the shared machine's load falls on every one of them alike: the median wall time of each, and the
 * pair's CPU seconds per request.
 */
async function serviceCosts(bodies: Uint8Array[], options: ImageOptionsInput): Promise<ServiceCost[]> {
  const requests = bodies.map((bytes) => requestBody(bytes, options));
  // The warm-up follows a long pause (the inputs' encoding): undici may write it into a keep-alive
  // socket the server has just closed (EPIPE), and it does not resend a POST itself.
  for (const body of requests) await viaService(body).catch(() => viaService(body));
  const seconds = requests.map((): number[] => []);
  const cpu = requests.map((): number | null => 0);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, body] of requests.entries()) {
      const cpuBefore = treeCpuSeconds(pair.pid);
      const started = performance.now();
      await viaService(body);
      seconds[i]!.push((performance.now() - started) / 1000);
      const cpuAfter = treeCpuSeconds(pair.pid);
      cpu[i] = cpuBefore === null || cpuAfter === null || cpu[i] === null ? null : cpu[i]! + cpuAfter - cpuBefore;
    }
  }
  return requests.map((_, i) => ({ seconds: median(seconds[i]!), cpu: cpu[i] === null ? null : cpu[i]! / ROUNDS }));
}

// A phone's HEIC beside the same picture as a JPEG, through the service to a 1600 px WebP: the
// target is at most 1.5 times the JPEG's time, in the same run.
const HEIC_TARGET = 1.5;
const HEIC_OPTIONS: ImageOptionsInput = { width: 1600, format: "webp" };

async function foreignInputs(): Promise<void> {
  console.log(`\nHEIC beside the JPEG of the same picture, through /v1/image/optimize to a 1600 px WebP, median of ${ROUNDS} rounds (s/image)`);
  if (!heifEncPresent()) {
    console.log("not measured: heif-enc (Debian package libheif-examples) is not installed");
  } else {
    // The origin was started from this process's environment: it chose the same decoder.
    console.log(`origin's HEIC decoder: ${chooseHeicDecoder() === "native" ? "native libheif (heif-convert; grids through ffmpeg when it runs)" : "libheif in WebAssembly"}`);
    console.log(`CPU: the service pair's CPU seconds per request (edge, origin and the tools it runs), beside the wall time the target is on; load average ${loadavg()[0]!.toFixed(1)}\n`);
    console.log("input                          bytes    JPEG s   HEIC s    ratio  verdict                      JPEG CPU HEIC CPU  CPU ratio");
    const photo24 = await photo(6000, 4000);
    const rows = [
      { name: "12 MP HEIC, one image", jpeg: inputs[0]!.bytes, layout: "single" as const, target: true },
      { name: "12 MP HEIC, 512 px grid", jpeg: inputs[0]!.bytes, layout: "grid" as const, target: true },
      { name: "12 MP burst of 3 images", jpeg: inputs[0]!.bytes, layout: { burst: 3 }, target: false },
      { name: "24 MP HEIC, 512 px grid", jpeg: photo24, layout: "grid" as const, target: false },
    ];
    for (const row of rows) {
      const heic = await heicOf(row.jpeg, row.layout);
      // The JPEG is timed again beside each HEIC, in turns with it.
      const costs = await serviceCosts([row.jpeg, heic], HEIC_OPTIONS).catch((error: unknown) => {
        console.log(`${row.name.padEnd(25)} ${String(heic.byteLength).padStart(10)} failed: ${error instanceof Error ? `${error.message} ${error.cause instanceof Error ? error.cause.message : ""}` : String(error)}`);
        return null;
      });
      if (costs === null) continue;
      const [jpeg, cost] = costs as [ServiceCost, ServiceCost];
      const ratio = cost.seconds / jpeg.seconds;
      const verdict = row.target ? (ratio <= HEIC_TARGET ? `met (<= ${HEIC_TARGET})` : `NOT MET (target <= ${HEIC_TARGET})`) : "(no target)";
      const cpu = jpeg.cpu === null || cost.cpu === null ? "  (no /proc)" : `${fmt(jpeg.cpu, 3)} ${fmt(cost.cpu, 3)} ${fmt(cost.cpu / jpeg.cpu)}`;
      console.log(`${row.name.padEnd(25)} ${String(heic.byteLength).padStart(10)} ${fmt(jpeg.seconds, 3)} ${fmt(cost.seconds, 3)} ${fmt(ratio)}  ${verdict.padEnd(26)} ${cpu}`);
    }
  }
  console.log(`\nSVG beside the PNG of the same picture, to a 1600 px JPEG at q76, median of ${ROUNDS} rounds (s/image; engine = the origin's pipeline in-process)`);
  const options: ImageOptionsInput = { width: 1600, format: "jpeg", quality: 76 };
  const engine = async (bytes: Uint8Array) => (await timed(() => processImage(bytes, imageOptionsSchema.parse(options)), ROUNDS)) / ROUNDS;
  const [png, svg] = [inputs[1]!.bytes, graphicSvg(2000, 1500)];
  const [pngEngine, svgEngine] = [await engine(png), await engine(svg)];
  const [pngService, svgService] = (await serviceCosts([png, svg], options)).map((cost) => cost.seconds) as [number, number];
  console.log(`3 MP graphic: PNG engine ${pngEngine.toFixed(3)} service ${pngService.toFixed(3)}; SVG engine ${svgEngine.toFixed(3)} (${(svgEngine / pngEngine).toFixed(2)}x) service ${svgService.toFixed(3)} (${(svgService / pngService).toFixed(2)}x)`);
}

// A caption on a 1 MP photo (the origin's transform in-process, to a 1000 px JPEG at q76): the text
// is drawn at its size, coloured, boxed and composited, beside the same transform without it. The
// two alternate round by round and each takes its median, so the shared machine's load swings
// reach both alike.
async function textOverlayCost(): Promise<void> {
  console.log(`\nText overlay on a 1 MP photo to a 1000 px JPEG q76, origin transform in-process, median of ${ROUNDS} alternating rounds (s/image; ratio = with / without)`);
  const source = await photo(1200, 900);
  const plain = originTransformSchema.parse({ output: "jpeg", width: 1000, quality: 76 });
  const caption = { text: "© PixelPress 2026 — שלום, Привет", font: "sans", size: 36, colour: "ffffff", box: "00000080", padding: 8, gravity: "southeast", opacity: 90 } as const;
  const withCaption = originTransformSchema.parse({ ...plain, text_overlay: caption });
  const once = async (options: typeof plain) => {
    const started = performance.now();
    await transformImage(source, options);
    return (performance.now() - started) / 1000;
  };
  await once(withCaption);
  const [without, withText]: number[][] = [[], []];
  for (let i = 0; i < ROUNDS; i++) {
    without!.push(await once(plain));
    withText!.push(await once(withCaption));
  }
  const [plainSeconds, textSeconds] = [median(without!), median(withText!)];
  console.log(`without text ${plainSeconds.toFixed(4)}  with l_text (${caption.text.length} characters, 36 px, boxed) ${textSeconds.toFixed(4)}  ratio ${(textSeconds / plainSeconds).toFixed(2)}x`);
}

try {
  if (runs("text")) await textOverlayCost();
  if (runs("throughput")) {
    console.log(`\nThroughput, ${ROUNDS} sequential rounds per cell (images/s; ratio = service / bare sharp)\n`);
    console.log("input                 target      bare sharp   service    ratio");
    const ratios: number[] = [];
    for (const input of inputs) {
      for (const target of TARGETS) {
        const bare = await timed(() => target.bare(sharp(input.bytes).rotate().resize({ width: 1600, withoutEnlargement: true })).toBuffer(), ROUNDS);
        const body = requestBody(input.bytes, target.options);
        const service = await timed(() => viaService(body), ROUNDS);
        const ratio = bare / service;
        ratios.push(ratio);
        console.log(`${input.name.padEnd(21)} ${target.name.padEnd(10)} ${fmt(ROUNDS / bare)} ${fmt(ROUNDS / service)} ${fmt(ratio)}`);
      }
    }
    const geo = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
    console.log(`geometric mean ratio service/bare: ${geo.toFixed(3)} (target >= 0.8)`);
  }
  if (runs("foreign")) await foreignInputs();
  if (runs("faces")) await faceDetectionCost(await photo(1224, 817), ROUNDS);
  if (runs("search")) {
    console.log("\nmax_bytes search (engine in-process, to 1600 px wide, ceiling q76): budgets at 85/60/40/25% of the q76 size");
    console.log("steps short = how far the best quality that fits (checked at chosen+1..+3) lies above the chosen one; exact = chosen+1 does not fit (or chosen is the ceiling)");
    const encodeCounts: number[] = [];
    let worstSteps = 0;
    let inexact = 0;
    for (const source of searchSources()) {
      const sourceCounts: number[] = [];
      for (const format of ["jpeg", "webp", "avif"] as const) {
        const size = async (quality: number) =>
          (await processImage(source.bytes, imageOptionsSchema.parse({ format, quality, width: 1600 }))).stats.output_bytes;
        const full = await size(76);
        const row: string[] = [];
        for (const share of [0.85, 0.6, 0.4, 0.25]) {
          const budget = Math.round(full * share);
          try {
            const fitted = await processImage(source.bytes, imageOptionsSchema.parse({ format, quality: 76, width: 1600, max_bytes: budget }));
            const chosen = fitted.stats.quality ?? 0;
            let best = chosen;
            const above: number[] = [];
            for (let q = chosen + 1; q <= Math.min(76, chosen + 3); q++) {
              above.push(await size(q));
              if (above.at(-1)! <= budget) best = q;
            }
            const exact = chosen === 76 || above[0]! > budget;
            if (!exact) inexact++;
            worstSteps = Math.max(worstSteps, best - chosen);
            sourceCounts.push(fitted.stats.encodes);
            row.push(`${Math.round(share * 100)}%: q${chosen} ${fitted.stats.encodes} enc ${best - chosen} short${exact ? "" : " INEXACT"}`);
          } catch (error) {
            row.push(`${Math.round(share * 100)}%: unreachable (${(error as Error).message.slice(0, 40)})`);
          }
        }
        console.log(`${source.name.padEnd(22)} ${format.padEnd(5)} ${row.join(" | ")}`);
      }
      console.log(`${source.name.padEnd(22)} mean encodes ${mean(sourceCounts).toFixed(2)} over ${sourceCounts.length} searches`);
      encodeCounts.push(...sourceCounts);
    }
    console.log(`mean encodes over all ${encodeCounts.length} searches: ${mean(encodeCounts).toFixed(2)} (target <= 4.5, the encode at the ceiling included)`);
    console.log(`exactness: steps short of the best that fits: ${worstSteps} (target 0); searches whose quality+1 also fits: ${inexact} of ${encodeCounts.length} (target 0)`);

  }
  if (runs("rss")) {
    console.log("\nOrigin RSS across 200 sequential images through the service (1 MP photo -> 800 px WebP)");
    const small = requestBody(await photo(1200, 900), { width: 800, format: "webp" });
    const rss = async () => (await (await fetch(`${pair.originUrl}/healthz`)).json<{ rss_bytes: number }>()).rss_bytes;
    const samples: number[] = [await rss()];
    for (let i = 1; i <= 200; i++) {
      await viaService(small);
      if (i % 25 === 0) samples.push(await rss());
    }
    const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
    console.log(`RSS MB every 25 images: ${samples.map(mb).join(" ")}`);
    const settled = samples.slice(2);
    console.log(`growth after warm-up (image 50 -> 200): ${mb(settled.at(-1)! - settled[0]!)} MB`);
  }
  if (runs("video")) await videoBench(Math.min(ROUNDS, 3));
} finally {
  await pair.stop();
}
