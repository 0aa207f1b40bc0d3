// Run with plain `node` (Node 20 in CI) in a scratch app that installed the packed tarballs: every
// entry point loads from node_modules and answers as documented, with no TypeScript loader.
import assert from "node:assert/strict";
import astroImageService from "@pixelpress/astro";
import { createPixelPress, PixelPressError } from "@pixelpress/client";
import { createImageUrls } from "@pixelpress/client/images";
import { createSignedImageUrls } from "@pixelpress/client/server";
import { verifyWebhook, WebhookVerificationError } from "@pixelpress/client/webhooks";
import { createNextLoader } from "@pixelpress/next";
import { getImage } from "@pixelpress/nuxt";
import { transform } from "@pixelpress/unpic";

const config = { baseUrl: "https://img.example.com", keyId: "key_pub" };
const base = "https://img.example.com/v1/image/t/key_pub";

assert.equal(createImageUrls(config).transformUrl("file_abc", { width: 800, format: "auto", quality: "auto" }), `${base}/w_800,q_auto,f_auto/file_abc`);
assert.throws(() => createImageUrls(config).transformUrl("file_abc", { width: 0 }), PixelPressError);
assert.match(await createSignedImageUrls({ ...config, signingSecret: "pps_secret" }).transformUrl("file_abc", { width: 400 }), /\/w_400,s_[A-Za-z0-9_-]{22}\/file_abc$/);
await assert.rejects(verifyWebhook({ headers: {}, body: "{}", secret: "whsec_x" }), WebhookVerificationError);
assert.equal(createNextLoader(config)({ src: "file_abc", width: 640 }), `${base}/w_640,f_auto/file_abc`);
assert.equal(getImage("file_abc", { modifiers: { width: 400 }, baseURL: config.baseUrl, keyId: config.keyId }).url, `${base}/w_400/file_abc`);
assert.equal(typeof astroImageService.getURL, "function");
assert.match(String(transform("file_abc", { width: 300 }, config)), /\/w_300/);
assert.equal(typeof createPixelPress({ apiKey: "ak_test" }).image.optimize, "function");
console.log("every entry point loads and answers on Node", process.versions.node);
