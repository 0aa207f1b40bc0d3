// POST /v1/pdf/compress for a dropped PDF. A large one (10 MB and up) is answered as a job: the
// job is polled until it ends, reporting its progress, and its result is the same body.
import type { ApiClient } from "../api/api-client.ts";
import { ApiProblem } from "../api/api-problem.ts";
import type { Source } from "../api/large-source.ts";
import type { JobAccepted, PdfCompressJob, PdfCompressOptions, PdfCompressResult } from "../api/types.ts";

const POLL_MS = 1000;

/** An uploaded source's result comes back as a signed URL: a large PDF is not sent back inline. */
export async function compressPdf(
  api: ApiClient,
  source: Source,
  options: PdfCompressOptions,
  onProgress: (share: number | null) => void,
): Promise<PdfCompressResult> {
  const output = "base64" in source ? "base64" : "url";
  const answer = await api.post<PdfCompressResult | JobAccepted>("/v1/pdf/compress", { source, options: { ...options, output } });
  if (!("job_id" in answer)) return answer;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const job = await api.get<PdfCompressJob>(answer.status_url);
    onProgress(job.progress);
    if (job.status === "succeeded" && job.result) return job.result;
    if (job.status === "failed" || job.status === "cancelled") {
      throw new ApiProblem(job.error?.status ?? 0, job.error?.title ?? `The job was ${job.status}`, job.error?.detail);
    }
  }
}
