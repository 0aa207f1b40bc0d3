// The pasted API key lives in this tab's sessionStorage: gone when the tab closes, never in a
// cookie (so never sent by the browser on its own), a URL or a log.
const STORAGE_KEY = "pixelpress.console.api-key";

export function storedApiKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

export function storeApiKey(apiKey: string | null): void {
  if (apiKey === null) sessionStorage.removeItem(STORAGE_KEY);
  else sessionStorage.setItem(STORAGE_KEY, apiKey);
}
