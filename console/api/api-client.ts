// The console's only way to the service: same-origin calls to the public API with the pasted key
// as a bearer token. The key goes in the Authorization header and nowhere else. A 401 means the key
// itself is refused (revoked, or never valid): the call fails as any other, and the shell is told.
import { problemOf, type ApiProblem } from "./api-problem.ts";

export interface ApiClient {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  patch<T>(path: string, body: unknown): Promise<T>;
  delete<T>(path: string): Promise<T>;
}

export function apiClient(apiKey: string, onKeyRefused?: (problem: ApiProblem) => void): ApiClient {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "omit" });
    if (!response.ok) {
      const problem = await problemOf(response);
      if (response.status === 401) onKeyRefused?.(problem);
      throw problem;
    }
    return (response.status === 204 ? undefined : await response.json()) as T;
  }
  return {
    get: (path) => call("GET", path),
    post: (path, body) => call("POST", path, body),
    patch: (path, body) => call("PATCH", path, body),
    delete: (path) => call("DELETE", path),
  };
}
