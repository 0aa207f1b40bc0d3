// Run with plain `node` in the scratch app that installed the packed tarballs, against a running
// edge + origin pair (scripts/with-service-pair.ts sets PIXELPRESS_BASE_URL, PIXELPRESS_API_KEY and
// PIXELPRESS_KEY_ID): the installed client calls the real API, and the installed URL builder's URL
// is served by the real transform path.
import assert from "node:assert/strict";
import { deflateSync } from "node:zlib";
import { createPixelPress, PixelPressError } from "@pixelpress/client";
import { createImageUrls } from "@pixelpress/client/images";

const baseUrl = process.env.PIXELPRESS_BASE_URL;
const apiKey = process.env.PIXELPRESS_API_KEY;
const keyId = process.env.PIXELPRESS_KEY_ID;
assert.ok(baseUrl && apiKey && keyId, "PIXELPRESS_BASE_URL, PIXELPRESS_API_KEY and PIXELPRESS_KEY_ID must be set");

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
/** An RGB PNG of seeded noise: noise keeps the PNG large, so a small WebP of it is smaller and billed. */
function noisePng(width, height) {
  let seed = 7;
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let i = 0; i < rows.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    rows[i] = i % (width * 3 + 1) === 0 ? 0 : seed >>> 24;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

const png = noisePng(96, 64).toString("base64");
const client = createPixelPress({ baseUrl, apiKey });

const optimized = await client.image.optimize({ source: { base64: png }, options: { width: 32, format: "webp" } });
assert.equal(optimized.format, "webp");
assert.equal(optimized.width, 32);
assert.ok(optimized.billing.charged_micros > 0, "a smaller output is billed");
const webp = Buffer.from(await (await fetch(optimized.url)).arrayBuffer());
assert.equal(webp.subarray(0, 4).toString("latin1"), "RIFF");
assert.equal(webp.subarray(8, 12).toString("latin1"), "WEBP");

const refused = await client.image.optimize({ source: { base64: Buffer.from("not an image").toString("base64") } }).catch((error) => error);
assert.ok(refused instanceof PixelPressError, "a bad source is the client's error type");
assert.ok(refused.status >= 400 && refused.status < 500, `a bad source is a 4xx, not ${refused.status}`);

const file = await client.files.create({ source: { base64: png }, expires_at: null });
const url = createImageUrls({ baseUrl, keyId }).transformUrl(file.file_id, { width: 16, format: "png" });
const served = await fetch(url);
assert.equal(served.status, 200, `${url} answered ${served.status}`);
assert.equal(served.headers.get("content-type"), "image/png");
const thumbnail = Buffer.from(await served.arrayBuffer());
assert.equal(thumbnail.readUInt32BE(16), 16, "the PNG's IHDR says 16 px wide");

console.log(`the installed client and URL builder work against the running service on Node ${process.versions.node}`);
