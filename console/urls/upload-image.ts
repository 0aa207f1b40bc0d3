// A file stored in the account the way any client stores one: a presigned upload (the PUT goes to
// the service's own storage), then complete. Its file id is what transform URLs name.
import type { ApiClient } from "../api/api-client.ts";
import { problemOf } from "../api/api-problem.ts";
import type { components } from "../../clients/ts/api-types.ts";

type CreatedUpload = components["schemas"]["CreatedUpload"];

export async function uploadImage(api: ApiClient, file: File): Promise<string> {
  const created = await api.post<CreatedUpload>("/v1/uploads", { filename: file.name, content_type: file.type || "application/octet-stream", size_bytes: file.size });
  const put = await fetch(created.upload.url, { method: created.upload.method, headers: { "Content-Type": created.upload.headers["Content-Type"] }, body: file, credentials: "omit" });
  if (!put.ok) throw await problemOf(put);
  await api.post(`/v1/uploads/${created.file_id}/complete`);
  return created.file_id;
}
