import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageFactsSchema, type ImageFacts } from "../../../contracts/origin/image-facts.ts";
import { originTransformSchema, type OriginTransformOptions } from "../../../contracts/origin/image-transform.ts";
import { FACE_MARGIN } from "../../../contracts/transform/token-values.ts";
import { generatedFile } from "../../../test/fixtures/generated-files.ts";
import { drawnFaces } from "../test-support/drawn-faces.ts";
import { transformImage } from "../transform-image.ts";
import { detectFaces, detectionsRun } from "./face-detector.ts";
import { faceCropRegion } from "./face-crop.ts";
import { faceRegion } from "./faces-step.ts";

const run = (input: Uint8Array, options: Partial<OriginTransformOptions>) => transformImage(input, originTransformSchema.parse({ quality: 76, output: "png", ...options }));

async function factsOf(input: Uint8Array, options: Partial<OriginTransformOptions> = {}): Promise<ImageFacts> {
  const made = await run(input, { ...options, facts: true });
  return imageFactsSchema.parse(JSON.parse(new TextDecoder().decode(made.bytes)));
}

async function pixels(bytes: Uint8Array) {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

// One face near the right edge of a wide picture, outside the centre square a cover crop keeps.
const offCentre = drawnFaces(1200, 600, [{ cx: 1040, cy: 300, size: 120 }]);
const twoFaces = drawnFaces(1200, 800, [{ cx: 250, cy: 350, size: 120 }, { cx: 900, cy: 400, size: 160 }]);
const noFace = drawnFaces(1200, 600, []);

describe("face detection", () => {
  it("finds each drawn face where it was drawn, in source pixels, and none in a picture without one", async () => {
    const facts = await factsOf(await offCentre);
    expect(facts.faces).toHaveLength(1);
    const [face] = facts.faces;
    expect(face!.score).toBeGreaterThan(0.5);
    // The oval spans 980 to 1100 across and 222 to 378 down: the box's centre lies inside it.
    expect(face!.x + face!.width / 2).toBeGreaterThan(980);
    expect(face!.x + face!.width / 2).toBeLessThan(1100);
    expect(face!.y + face!.height / 2).toBeGreaterThan(222);
    expect(face!.y + face!.height / 2).toBeLessThan(378);
    expect((await factsOf(await twoFaces)).faces).toHaveLength(2);
    expect((await factsOf(await noFace)).faces).toEqual([]);
  });
});

describe("the detection memo", () => {
  it("detects once for several transforms of one source, and once more for each new crop of it", async () => {
    const source = await drawnFaces(900, 600, [{ cx: 600, cy: 300, size: 110 }]);
    const before = detectionsRun();
    await run(source, { width: 200, height: 200, fit: "cover", gravity: "face" });
    await run(source, { width: 300, height: 100, fit: "cover", gravity: "auto", output: "webp" });
    await run(source, { effect: { kind: "blur_faces" } });
    await factsOf(source);
    expect(detectionsRun() - before).toBe(1);
    const crop = { x: 300, y: 0, width: 600, height: 600 };
    await run(source, { crop, width: 200, height: 100, fit: "cover", gravity: "face" });
    await run(source, { crop, effect: { kind: "pixelate_faces" } });
    expect(detectionsRun() - before).toBe(2);
  });
});

describe("face gravity", () => {
  it("g_face crops a cover box that holds the face box, where the centre crop has no face", async () => {
    const source = await offCentre;
    const [face] = (await factsOf(source)).faces;
    const options = { width: 300, height: 300, fit: "cover" as const };
    const atFace = await run(source, { ...options, gravity: "face" });
    const atCentre = await run(source, { ...options, gravity: "center" });
    expect((await factsOf(source, { ...options, gravity: "face" })).gravity).toBe("face");
    // The 600 px square kept is pushed against the right edge (x 600 to 1200), which holds the face box.
    const region = faceCropRegion({ width: 1200, height: 600 }, { width: 300, height: 300 }, [{ x: face!.x / 1200, y: face!.y / 600, width: face!.width / 1200, height: face!.height / 600, score: 1 }]);
    expect(region.left).toBeLessThanOrEqual(face!.x);
    expect(region.left + region.width).toBeGreaterThanOrEqual(face!.x + face!.width);
    expect(await detectFaces(sharp(atFace.bytes))).toHaveLength(1);
    expect(await detectFaces(sharp(atCentre.bytes))).toEqual([]);
  });

  it("g_faces holds every face box, and g_auto uses the faces when there are any", async () => {
    const source = await twoFaces;
    const faces = (await factsOf(source)).faces;
    const relative = faces.map((face) => ({ x: face.x / 1200, y: face.y / 800, width: face.width / 1200, height: face.height / 800, score: face.score }));
    const region = faceCropRegion({ width: 1200, height: 800 }, { width: 400, height: 200 }, relative);
    for (const face of faces) {
      expect(region.left).toBeLessThanOrEqual(face.x);
      expect(region.left + region.width).toBeGreaterThanOrEqual(face.x + face.width);
      expect(region.top).toBeLessThanOrEqual(face.y);
      expect(region.top + region.height).toBeGreaterThanOrEqual(face.y + face.height);
    }
    const options = { width: 400, height: 200, fit: "cover" as const };
    const all = await pixels((await run(source, { ...options, gravity: "faces" })).bytes);
    const auto = await pixels((await run(source, { ...options, gravity: "auto" })).bytes);
    expect(auto.data.equals(all.data)).toBe(true);
    expect(await detectFaces(sharp((await run(source, { ...options, gravity: "faces" })).bytes))).toHaveLength(2);
    expect((await factsOf(source, { ...options, gravity: "auto" })).gravity).toBe("faces");
  });

  it("z_ zooms towards the face, never tighter than its box and margin", async () => {
    const source = await offCentre;
    const [face] = (await factsOf(source)).faces;
    const relative = { x: face!.x / 1200, y: face!.y / 600, width: face!.width / 1200, height: face!.height / 600, score: 1 };
    const tight = faceCropRegion({ width: 1200, height: 600 }, { width: 300, height: 300 }, [relative], 10);
    expect(tight.width).toBeLessThan(600);
    expect(tight.left).toBeLessThanOrEqual(face!.x - face!.width * FACE_MARGIN + 1);
    expect(tight.left + tight.width).toBeGreaterThanOrEqual(face!.x + face!.width * (1 + FACE_MARGIN) - 1);
    const zoomed = await run(source, { width: 300, height: 300, fit: "cover", gravity: "face", zoom: 3 });
    const [found] = await detectFaces(sharp(zoomed.bytes));
    // The face fills more of the 300 px square than in the unzoomed crop, where it is about a quarter wide.
    expect(found!.width).toBeGreaterThan(0.4);
  });

  it("falls back without a face: g_face and g_faces to the centre, g_auto to the content-aware crop", async () => {
    const source = await noFace;
    const options = { width: 300, height: 300, fit: "cover" as const };
    const centre = await pixels((await run(source, { ...options, gravity: "center" })).bytes);
    for (const gravity of ["face", "faces"] as const) {
      expect((await pixels((await run(source, { ...options, gravity, zoom: 2 })).bytes)).data.equals(centre.data)).toBe(true);
      expect((await factsOf(source, { ...options, gravity })).gravity).toBe("center");
    }
    expect((await factsOf(source, { ...options, gravity: "auto" })).gravity).toBe("auto");
  });
});

describe("effects on faces", () => {
  for (const effect of [{ kind: "blur_faces" as const }, { kind: "pixelate_faces" as const, amount: 8 }, { kind: "pixelate_faces" as const }]) {
    it(`${effect.kind}:${effect.amount ?? "default"} changes pixels inside each face's box and margin only`, async () => {
      const source = await twoFaces;
      const plain = await pixels((await run(source, {})).bytes);
      const changed = await pixels((await run(source, { effect })).bytes);
      const boxes = (await detectFaces(sharp(source))).map((face) => faceRegion(face, plain));
      expect(boxes).toHaveLength(2);
      const inside = (x: number, y: number) => boxes.some((box) => x >= box.left && x < box.left + box.width && y >= box.top && y < box.top + box.height);
      let changedInside = 0;
      let changedOutside = 0;
      for (let y = 0; y < plain.height; y++) {
        for (let x = 0; x < plain.width; x++) {
          const at = (y * plain.width + x) * 3;
          if (plain.data[at] === changed.data[at] && plain.data[at + 1] === changed.data[at + 1] && plain.data[at + 2] === changed.data[at + 2]) continue;
          if (inside(x, y)) changedInside++;
          else changedOutside++;
        }
      }
      expect(changedOutside).toBe(0);
      const boxPixels = boxes.reduce((sum, box) => sum + box.width * box.height, 0);
      expect(changedInside).toBeGreaterThan(boxPixels / 2);
    });
  }

  it("blurs the faces out of the detector's sight", async () => {
    expect(await detectFaces(sharp((await run(await twoFaces, { effect: { kind: "blur_faces" } })).bytes))).toEqual([]);
  });

  it("leaves a picture without a face as it was, and refuses an effect on a kept animation", async () => {
    const source = await noFace;
    expect((await pixels((await run(source, { effect: { kind: "blur_faces", amount: 80 } })).bytes)).data.equals((await pixels((await run(source, {})).bytes)).data)).toBe(true);
    const animated = await generatedFile("animated.gif");
    await expect(run(animated, { effect: { kind: "blur_faces" }, output: "source" })).rejects.toMatchObject({ slug: "unprocessable" });
    // A face gravity crops it at the centre, every frame kept.
    expect((await run(animated, { width: 20, height: 20, fit: "cover", gravity: "face", output: "source" })).format).toBe("webp");
  });
});
