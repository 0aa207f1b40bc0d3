import { TrieRouter } from "hono/router/trie-router";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** Builds a matcher over the app's concrete routes (not its middleware) to tell a 405 from a 404. */
export function allowedMethodsMatcher(routes: readonly { method: string; path: string }[]) {
  const router = new TrieRouter<string>();
  for (const route of routes) {
    if (route.method !== "ALL") router.add(route.method, route.path, route.method);
  }
  return (path: string): string[] =>
    METHODS.filter((method) => {
      const [matches] = router.match(method, path);
      return matches.length > 0;
    });
}
