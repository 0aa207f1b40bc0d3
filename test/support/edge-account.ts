// The test account's side of the running pair that browser tests need before they open a page:
// its transform key id, and a file uploaded the way a client uploads one.
import { expect } from "vitest";

/** The key id transform URLs are written with: the account's key that is not revoked. */
export async function activeKeyId(edge: string, apiKey: string): Promise<string> {
  const res = await fetch(`${edge}/v1/keys`, { headers: { Authorization: `Bearer ${apiKey}` } });
  const { data } = await res.json<{ data: { key_id: string; revoked_at: string | null }[] }>();
  return data.find((k) => k.revoked_at === null)!.key_id;
}

/** Uploads `bytes` through a presigned upload and returns the completed file's id. */
export async function uploadFile(edge: string, apiKey: string, bytes: Uint8Array, file: { filename: string; contentType: string }): Promise<string> {
  const auth = { Authorization: `Bearer ${apiKey}` };
  const created = await fetch(`${edge}/v1/uploads`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ filename: file.filename, content_type: file.contentType, size_bytes: bytes.length }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const { file_id, upload } = await created.json<{ file_id: string; upload: { method: string; url: string } }>();
  const put = await fetch(upload.url, { method: upload.method, headers: { "Content-Type": file.contentType }, body: new Uint8Array(bytes) });
  expect(put.status).toBe(200);
  expect((await fetch(`${edge}/v1/uploads/${file_id}/complete`, { method: "POST", headers: auth })).status).toBe(200);
  return file_id;
}
