import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import asc from "assemblyscript/asc";
import { describe, expect, it } from "vitest";
import { photoLikePixels } from "../image/test-support/synthetic-images.ts";
import { scoreAgainst, prepareReference } from "./ssimulacra2.ts";
import { forceEmulatedMultiplyAdd, multiplyAddForm, workspaceFor } from "./ssimulacra2-kernels.ts";
import { streamingSsimulacra2 } from "./test-support/ssimulacra2-streaming.ts";
import { DISTORTIONS, jpegRoundTrip } from "./test-support/distortions.ts";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const image = (width: number, height: number, seed: number) => ({ data: new Uint8Array(photoLikePixels(width, height, seed)), width, height, channels: 3 as const });

describe("ssimulacra2 kernels", () => {
  it("are the committed binary: compiling assembly/ssimulacra2-kernels.ts as npm run build:kernels does gives ssimulacra2-kernels.wasm byte for byte", async () => {
    const outputs = new Map<string, Uint8Array>();
    const { error } = await asc.main([here("./assembly/ssimulacra2-kernels.ts"), "--config", here("./assembly/asconfig.json")], {
      writeFile: (name, contents) => void outputs.set(name, typeof contents === "string" ? new TextEncoder().encode(contents) : contents),
    });
    expect(error?.message ?? null).toBeNull();
    const built = [...outputs].find(([name]) => name.endsWith("ssimulacra2-kernels.wasm"))?.[1];
    expect(built, `outputs: ${[...outputs.keys()].join(", ")}`).toBeDefined();
    expect(Buffer.from(built!).equals(readFileSync(here("./ssimulacra2-kernels.wasm"))), "run npm run build:kernels and commit the .wasm").toBe(true);
  }, 60_000);

  it("score after a wider image grew their memory as before it, on odd and even widths", async () => {
    const narrow = image(63, 41, 3);
    const candidate = await jpegRoundTrip(narrow, 40);
    const before = scoreAgainst(prepareReference(narrow), candidate);
    // Within 0.05: the kernels' SSIM terms are single precision, the streaming oracle's double (see ssimulacra2.test.ts).
    expect(Math.abs(before - streamingSsimulacra2(narrow, candidate))).toBeLessThan(0.05);
    const wide = image(2500, 16, 4);
    const grown = workspaceFor(wide.width);
    expect(grown.width).toBeGreaterThanOrEqual(wide.width);
    const wideCandidate = await jpegRoundTrip(wide, 40);
    expect(Math.abs(scoreAgainst(prepareReference(wide), wideCandidate) - streamingSsimulacra2(wide, wideCandidate))).toBeLessThan(0.05);
    expect(scoreAgainst(prepareReference(narrow), candidate)).toBe(before);
  });

  it("score the same with the multiply-add emulated in double lanes as with the processor's fused one, and near the streaming oracle with either", async () => {
    const original = image(203, 117, 7);
    const prepared = prepareReference(original);
    const candidates = await Promise.all(DISTORTIONS.map((distortion) => distortion.apply(original)));
    const native = candidates.map((candidate) => scoreAgainst(prepared, candidate));
    const form = multiplyAddForm();
    forceEmulatedMultiplyAdd(true);
    try {
      expect(multiplyAddForm()).toBe("emulated");
      const emulated = candidates.map((candidate) => scoreAgainst(prepareReference(original), candidate));
      emulated.forEach((score, i) => expect(Math.abs(score - native[i]!), DISTORTIONS[i]!.name).toBeLessThan(1e-3));
    } finally {
      forceEmulatedMultiplyAdd(false);
    }
    expect(multiplyAddForm()).toBe(form);
    candidates.forEach((candidate, i) => expect(Math.abs(native[i]! - streamingSsimulacra2(original, candidate)), DISTORTIONS[i]!.name).toBeLessThan(0.05));
  });
});
