import { problemCatalogue, type ProblemType } from "../../contracts/problems/catalogue.ts";
import { problemSchema } from "./problem-schema.ts";

const AUTHENTICATED: ProblemType[] = ["unauthorized", "forbidden_scope", "rate_limited", "internal_error"];

/** The problem responses a route can return, described from the catalogue so docs match behaviour. */
export function problemResponses(...slugs: ProblemType[]) {
  const byStatus = new Map<number, ProblemType[]>();
  // A route that calls the origin can also get a reply from it that breaks the contract, and
  // every origin call has a deadline.
  const viaOrigin: ProblemType[] = slugs.includes("origin_unavailable") ? ["origin_invalid_reply", "processing_timeout"] : [];
  for (const slug of [...slugs, ...viaOrigin, ...AUTHENTICATED]) {
    const status = problemCatalogue[slug].status;
    const list = byStatus.get(status) ?? [];
    if (!list.includes(slug)) list.push(slug);
    byStatus.set(status, list);
  }
  const responses: Record<number, { description: string; content: Record<string, { schema: typeof problemSchema }> }> = {};
  for (const [status, list] of byStatus) {
    responses[status] = {
      description: list.map((slug) => `\`${slug}\`: ${problemCatalogue[slug].description}`).join(" "),
      content: { "application/problem+json": { schema: problemSchema } },
    };
  }
  return responses;
}

export function jsonContent<T>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

export const bearerSecurity = [{ bearerAuth: [] }];
