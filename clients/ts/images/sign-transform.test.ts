import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { urlTransform } from "../../../contracts/transform/canonical.ts";
import { transformPath } from "../../../contracts/transform/path.ts";
import { verifyTransformSignature } from "../../../contracts/transform/signature.ts";
import { parseTransform } from "../../../contracts/transform/tokens.ts";
import { createSignedImageUrls } from "./sign-transform.ts";

const config = { baseUrl: "https://img.example.com", keyId: "key_pub", signingSecret: "pps_secret" };
const signed = createSignedImageUrls(config);

// Verifies a URL the way the edge does: parse the segment, write it as signed, check s_ over the path.
async function edgeAccepts(url: string, secret = config.signingSecret): Promise<boolean> {
  const [, , , , keyId, segment, fileId] = new URL(url).pathname.split("/");
  const spec = parseTransform(segment!);
  return verifyTransformSignature(secret, transformPath(keyId!, urlTransform(spec), fileId!), spec.signature!);
}

describe("createSignedImageUrls", () => {
  it("signs every URL it writes over the edge's canonical path", async () => {
    const url = await signed.transformUrl("file_1", { format: "webp", width: 400 });
    expect(url).toMatch(/^https:\/\/img\.example\.com\/v1\/image\/t\/key_pub\/w_400,f_webp,s_[A-Za-z0-9_-]{22}\/file_1$/);
    expect(await edgeAccepts(url)).toBe(true);
    expect(await edgeAccepts(url, "another secret")).toBe(false);

    const img = await signed.imgAttributes("file_1", { width: 300, widths: [300, 600], format: "auto", intrinsic: { width: 1000, height: 500 } });
    const candidates = img.srcset.split(", ").map((candidate) => candidate.split(" ")[0]!);
    expect(candidates).toHaveLength(2);
    for (const candidate of [img.src, ...candidates]) expect(await edgeAccepts(candidate)).toBe(true);
    expect(img).toMatchObject({ width: 300, height: 150, sizes: "(min-width: 300px) 300px, 100vw" });

    const picture = await signed.picture("file_1", { width: 100, formats: ["avif"] });
    for (const candidate of picture.sources[0]!.srcset.split(", ")) expect(await edgeAccepts(candidate.split(" ")[0]!)).toBe(true);
    expect(await edgeAccepts((await signed.srcset("file_1", { densities: [1, 2], height: 90 })).split(" ")[0]!)).toBe(true);
  });

  it("signs w_auto's bounds: the URL does not verify with another bound or fallback", async () => {
    const img = await signed.imgAttributes("file_1", { width: { auto: true, fallback: 800, min: 320, max: 1280 }, format: "auto" });
    expect(img.src).toMatch(/\/w_auto:800:320-1280,f_auto,s_[A-Za-z0-9_-]{22}\/file_1$/);
    expect([img.srcset, img.sizes]).toEqual([img.src, "100vw"]);
    expect(await edgeAccepts(img.src)).toBe(true);
    for (const other of ["w_auto:800:320-3840", "w_auto:800", "w_auto:1280:320-1280", "w_800"]) expect(await edgeAccepts(img.src.replace("w_auto:800:320-1280", other))).toBe(false);
  });

  it("signs q_auto's level: the URL does not verify with another level", async () => {
    const url = await signed.transformUrl("file_1", { width: 400, quality: "auto:eco" });
    expect(url).toMatch(/\/w_400,q_auto:eco,s_[A-Za-z0-9_-]{22}\/file_1$/);
    expect(await edgeAccepts(url)).toBe(true);
    expect(await edgeAccepts(url.replace("q_auto:eco", "q_auto"))).toBe(false);
    expect(await edgeAccepts(url.replace("q_auto:eco", "q_auto:low"))).toBe(false);
  });
});

// The module graph dependency-cruiser reads from the server entry point, which re-exports the
// browser one; what a bundler starting at `entry` would pull in is what is reachable from it.
function moduleGraph(): Map<string, string[]> {
  const depcruise = resolve("node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");
  const run = spawnSync(process.execPath, [depcruise, "--config", resolve(".dependency-cruiser.mjs"), "--output-type", "json", "clients/ts/server.ts"], { encoding: "utf8" });
  const { modules } = JSON.parse(run.stdout) as { modules: { source: string; dependencies: { resolved: string }[] }[] };
  return new Map(modules.map((module) => [module.source, module.dependencies.map((dependency) => dependency.resolved)]));
}

function reachableFrom(graph: Map<string, string[]>, entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(graph.get(next) ?? []));
  }
  return seen;
}

describe("the browser entry point", () => {
  it("never reaches the signing code; the server entry point does", { timeout: 60_000 }, () => {
    const graph = moduleGraph();
    const browser = reachableFrom(graph, "clients/ts/index.ts");
    expect(browser).toContain("clients/ts/images/image-urls.ts");
    expect(browser).not.toContain("clients/ts/images/sign-transform.ts");
    expect(browser).not.toContain("contracts/transform/signature.ts");
    expect(reachableFrom(graph, "clients/ts/server.ts")).toContain("contracts/transform/signature.ts");
  });
});
