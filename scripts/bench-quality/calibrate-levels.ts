// npx node scripts/bench-quality/calibrate-levels.ts — where the quality levels' SSIMULACRA 2
// targets come from. Each corpus image (scripts/bench-quality/corpus-images.ts), at 1600 px and at
// its original size, is encoded at fixed qualities in JPEG, WebP and AVIF with the service's
// encoder settings and scored against the service's own rendering. Printed per format and
// quality: the score of the worst 10% of images (nearest rank), the median and the worst. The
// targets in contracts/perceptual-quality.ts are read off this table (origin/quality/README.md).
// CALIBRATE_JSON=<file> also writes every score, for a closer look.
import fs from "node:fs";
import sharp from "sharp";
import { imageOptionsSchema } from "../../contracts/image-options.ts";
import { encode } from "../../origin/image/encode.ts";
import { ssimulacra2 } from "../../origin/quality/ssimulacra2.ts";
import { corpusImages } from "./corpus-images.ts";
import { renderedSizes } from "./rendered-sizes.ts";
import { worstDecile } from "./worst-decile.ts";

const QUALITIES = [40, 50, 60, 70, 76, 82, 88, 94];
const FORMATS = ["jpeg", "webp", "avif"] as const;

interface Score {
  image: string;
  size: string;
  format: (typeof FORMATS)[number];
  quality: number;
  bytes: number;
  score: number;
}

const encoderOptions = imageOptionsSchema.parse({});
const scores: Score[] = [];
const images = corpusImages();
console.log(`${images.length} images; qualities ${QUALITIES.join(", ")}; formats ${FORMATS.join(", ")}`);
for (const image of images) {
  for (const size of await renderedSizes(await image.read())) {
    const { reference } = size;
    const raw = { raw: { width: reference.width, height: reference.height, channels: reference.channels } } as const;
    const line: string[] = [];
    for (const format of FORMATS) {
      for (const quality of QUALITIES) {
        const bytes = await encode(sharp(reference.data, raw), { format, lossless: false, quality }, encoderOptions);
        const decoded = await sharp(bytes).removeAlpha().raw().toBuffer();
        const score = ssimulacra2(reference, { ...reference, data: new Uint8Array(decoded) });
        scores.push({ image: image.name, size: size.label, format, quality, bytes: bytes.byteLength, score });
        if (quality === 76) line.push(`${format} ${score.toFixed(1)}`);
      }
    }
    console.log(`${image.name.padEnd(42)} ${size.label.padEnd(8)} ${`${reference.width}x${reference.height}`.padEnd(10)} q76: ${line.join(", ")}`);
  }
}
if (process.env.CALIBRATE_JSON) fs.writeFileSync(process.env.CALIBRATE_JSON, JSON.stringify(scores, null, 1));

const cases = new Set(scores.map((s) => `${s.image} ${s.size}`)).size;
console.log(`\nSSIMULACRA 2 over ${cases} image-sizes: worst 10% (nearest rank) / median / worst`);
console.log(`${"quality".padEnd(8)} ${FORMATS.map((f) => f.padStart(22)).join("")}`);
for (const quality of QUALITIES) {
  const cells = FORMATS.map((format) => {
    const values = scores.filter((s) => s.format === format && s.quality === quality).map((s) => s.score);
    const sorted = [...values].sort((a, b) => a - b);
    return `${worstDecile(values).toFixed(1)} / ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} / ${sorted[0]!.toFixed(1)}`.padStart(22);
  });
  console.log(`${`q${quality}`.padEnd(8)} ${cells.join("")}`);
}
