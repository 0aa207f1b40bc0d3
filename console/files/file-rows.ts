// How the file list asks for a page and writes a file's lifetime.

export function fileListPath(limit: number, cursor: string | null): string {
  return `/v1/files?limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
}

/** `expires_at` as a person reads it: a durable file (null) is kept until deleted. */
export function keptUntil(expiresAt: string | null): string {
  return expiresAt === null ? "until deleted" : `${expiresAt.slice(0, 16).replace("T", " ")} UTC`;
}

const DEFAULT_END_MS = 3_600_000;
const pad = (value: number) => String(value).padStart(2, "0");

/** A datetime-local control's value (local time, to the minute) an hour after `now`: the end offered for a durable file. */
export function expiryInputValue(now: Date): string {
  const at = new Date(now.getTime() + DEFAULT_END_MS);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
