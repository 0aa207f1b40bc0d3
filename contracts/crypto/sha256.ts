export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  // Web Crypto reads any view; the cast only drops the SharedArrayBuffer case from the type. The
  // origin's DOM lib needs it; the Workers types, with which lint reads contracts/, do not.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- see above
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return toHex(new Uint8Array(digest));
}

export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}
