// `attachment` with both forms of the name (RFC 6266): `filename*` carries it exactly in UTF-8,
// `filename` is an ASCII stand-in for old clients. Quotes, backslashes and control characters
// never reach the header unescaped, so a stored name cannot inject header syntax.

function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(filename)}`;
}
