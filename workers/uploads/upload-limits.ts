// The platform's largest input is MAX_UPLOAD_BYTES. Above PRESIGNED_UPLOAD_REQUIRED_ABOVE_BYTES a
// file must arrive through a presigned upload: that is the cap for sources fetched by URL, and sync
// JSON bodies stop well below it anyway (40 MB, middleware/json-body.ts).
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
export const PRESIGNED_UPLOAD_REQUIRED_ABOVE_BYTES = 100 * 1024 * 1024;
// Long enough to PUT 200 MB over a slow link, short enough that a leaked URL is soon useless.
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
