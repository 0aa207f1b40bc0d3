// The second, independent metric the levels are checked against (issue #25): butteraugli, the
// Debian package of Google's reference tool (`apt-get install butteraugli`), which prints one
// distance for two PNG files: below about 1.0 no visible difference, higher is worse. So the
// calibration does not only grade itself with the metric it was calibrated on.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import type { RawImage } from "../../origin/quality/raw-image.ts";

const BUTTERAUGLI = "butteraugli";

/** Whether the butteraugli tool is on PATH. */
export function butteraugliAvailable(): boolean {
  return spawnSync(BUTTERAUGLI, [], { stdio: "ignore" }).error === undefined;
}

/** butteraugli's distance between the reference pixels and an encoded output of them. */
export async function butteraugliDistance(reference: RawImage, output: Uint8Array): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "pixelpress-butteraugli-"));
  try {
    const raw = { raw: { width: reference.width, height: reference.height, channels: reference.channels } } as const;
    writeFileSync(join(dir, "reference.png"), await sharp(reference.data, raw).png({ compressionLevel: 1 }).toBuffer());
    writeFileSync(join(dir, "output.png"), await sharp(output).removeAlpha().png({ compressionLevel: 1 }).toBuffer());
    const run = spawnSync(BUTTERAUGLI, [join(dir, "reference.png"), join(dir, "output.png")], { encoding: "utf8" });
    const distance = Number.parseFloat(run.stdout);
    if (run.status !== 0 || !Number.isFinite(distance)) throw new Error(`butteraugli failed (${run.status}): ${run.stderr || run.stdout}`);
    return distance;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
