// A pasted key is tried before it is used: GET /v1/account answers 401 for a key the service does
// not know (a typo, a key id pasted for the secret, a revoked key). A 403 is a real key without the
// `account` scope, fine for the sections its scopes allow.
import { apiClient } from "../api/api-client.ts";
import { asProblem, type ApiProblem } from "../api/api-problem.ts";

/** Null when the service accepts the key; else why not, as the service said it. */
export async function keyRefusal(apiKey: string): Promise<ApiProblem | null> {
  try {
    await apiClient(apiKey).get("/v1/account");
    return null;
  } catch (error) {
    const problem = asProblem(error);
    return problem.status === 403 ? null : problem;
  }
}
