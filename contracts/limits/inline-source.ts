// The largest source a request may carry inline (base64 in the JSON body); anything larger goes
// through a presigned upload. Its own module, free of zod, so the console's first chunk can read it.
export const SYNC_SOURCE_MAX_BYTES = 25 * 1024 * 1024;
