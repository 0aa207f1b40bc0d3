// What the real runners return, for tests whose runner is a fake: each built through the public
// result schema, so a job that shows it passes the same response validation a real one does.
import type { JobResult } from "../jobs/job-runner.ts";
import { imageResultSchema } from "../operations/image-optimize.ts";
import { xlsxResultSchema } from "../operations/xlsx-generate.ts";

const stored = (fileId: string) => ({
  file_id: fileId,
  url: `http://127.0.0.1:8787/v1/files/${fileId}/content?expires=1795514400&sig=3q2-7w`,
  expires_at: "2026-11-24T10:00:00.000Z",
});

/** A 1600×1067 JPEG photo re-encoded at quality 80 to 18% of its size, stored for download. */
export function optimizedImageResult(chargedMicros: number): JobResult<"image.optimize"> {
  return imageResultSchema.parse({
    ...stored("file_8kT2bQ7xLw3mZr9Xc1Vd"),
    format: "jpeg",
    width: 1600,
    height: 1067,
    stats: {
      original_bytes: 1_204_331,
      output_bytes: 219_188,
      ratio: 0.182,
      original_width: 1600,
      original_height: 1067,
      original_format: "jpeg",
      quality: 80,
      score: null,
      quality_level: null,
      quality_target: null,
      target_met: null,
      chroma_subsampling: "4:2:0",
      jpeg_table: 3,
      webp_effort: null,
      lossless: false,
      encodes: 1,
      orientation_applied: null,
      first_frame_only: false,
      frames: 1,
      duration_ms: null,
      format_chosen_by_auto: false,
      candidates: null,
    },
    billing: { charged_micros: chargedMicros },
  });
}

/** A one-sheet workbook of a header and one row of two columns, plus two explicit cells. */
export function generatedWorkbookResult(chargedMicros: number): JobResult<"xlsx.generate"> {
  return xlsxResultSchema.parse({
    ...stored("file_Xl5sWq2nR8tYb4Kc6Md0"),
    filename: "report.xlsx",
    stats: { sheets: 1, rows: 2, cells: 4, output_bytes: 6_212 },
    billing: { charged_micros: chargedMicros },
  });
}
