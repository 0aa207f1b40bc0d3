// Pictures given by `file_id` or `url` are read here, at the edge that owns the stored files and
// the SSRF guard, and handed to the stateless origin as base64. Each is checked like an inline
// picture (PNG or JPEG, within the size cap), and a source that fails is a 4xx naming the picture.
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { readImageFacts } from "../../contracts/xlsx-image.ts";
import type { XlsxRequest } from "../../contracts/xlsx-request.ts";
import { XLSX_MAX_IMAGE_BYTES } from "../../contracts/xlsx-sheet-options.ts";
import type { Bindings } from "../env.ts";
import { resolveSource, sourceBody } from "../sources/resolve-source.ts";

/** Bytes of fetched and stored pictures one workbook may pull into the isolate (inline ones count against the JSON cap). */
export const XLSX_MAX_FETCHED_IMAGE_BYTES = 10 * 1024 * 1024;

type ImageSourceEnv = Pick<Bindings, "DB" | "FILES" | "FILE_SHARDS" | "ALLOW_LOOPBACK_URLS">;

function naming(error: unknown, pointer: string): unknown {
  if (!(error instanceof ProblemError)) return error;
  return new ProblemError(error.slug, `The picture at ${pointer}: ${error.message}`, { errors: error.errors, extensions: error.extensions, status: error.status, headers: error.headers });
}

async function pictureBytes(env: ImageSourceEnv, accountId: string, source: Parameters<typeof resolveSource>[2]): Promise<Uint8Array> {
  const body = await sourceBody(await resolveSource(env, accountId, source, "image", XLSX_MAX_IMAGE_BYTES));
  return body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer());
}

/** The workbook with every picture source inline; the request itself is not changed. */
export async function inlineImageSources(env: ImageSourceEnv, accountId: string, workbook: XlsxRequest): Promise<XlsxRequest> {
  if (!workbook.sheets.some((sheet) => sheet.images.some((image) => !("base64" in image.source)))) return workbook;
  let fetched = 0;
  const sheets: XlsxRequest["sheets"] = [];
  for (const [s, sheet] of workbook.sheets.entries()) {
    const images: typeof sheet.images = [];
    for (const [i, image] of sheet.images.entries()) {
      if ("base64" in image.source) {
        images.push(image);
        continue;
      }
      const pointer = `/sheets/${s}/images/${i}/source`;
      const bytes = await pictureBytes(env, accountId, image.source).catch((error: unknown) => {
        throw naming(error, pointer);
      });
      if (!readImageFacts(bytes)) {
        throw new ProblemError("validation_failed", "1 field is invalid.", { errors: [{ pointer, detail: "A picture is a PNG or JPEG image with a readable size." }] });
      }
      fetched += bytes.length;
      if (fetched > XLSX_MAX_FETCHED_IMAGE_BYTES) {
        throw new ProblemError("xlsx_limits", "1 field exceeds Excel's limits.", {
          errors: [{ pointer, detail: `Pictures by file_id or url add up to at most ${XLSX_MAX_FETCHED_IMAGE_BYTES} bytes per workbook; this one passes it.` }],
        });
      }
      images.push({ ...image, source: { base64: encodeBase64(bytes) } });
    }
    sheets.push({ ...sheet, images });
  }
  return { ...workbook, sheets };
}
