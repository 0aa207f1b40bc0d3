// Signing transform URLs for a caller who holds an API key but not the signing secret (the console,
// a server that keeps only API keys). The secret never leaves the edge: it signs here with the
// function the transform path verifies with, over the path the transform path reads, so a URL
// signed here is one the transform path serves.
import { ProblemError, type FieldError } from "../../contracts/problems/catalogue.ts";
import { urlTransform } from "../../contracts/transform/canonical.ts";
import { transformPath } from "../../contracts/transform/path.ts";
import { transformSignature } from "../../contracts/transform/signature.ts";
import type { TransformSpec } from "../../contracts/transform/registry.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";
import type { Bindings } from "../env.ts";
import { canonicalPath, signedSource } from "./check-signature.ts";
import { parseTransformAddress } from "./transform-address.ts";
import { loadTransformKey } from "./transform-key.ts";

export interface SignedTransform {
  /** The transform as asked. */
  transform: string;
  /** Its canonical form (with a preset, the name and the other tokens as given): what the signature covers. */
  canonical: string;
  signature: string;
  url: string;
}

export interface SignRequest {
  keyId: string;
  /** A file id, or an origin name and the path under it, as written in a transform URL. */
  source: string;
  transforms: string[];
}

// A transform's problem points into the list it came in, so a batch names the entry at fault.
function pointedInto(error: unknown, index: number): unknown {
  if (!(error instanceof ProblemError) || error.slug !== "transform_invalid") return error;
  const errors: FieldError[] = (error.errors ?? []).map((field) => ({ ...field, pointer: field.pointer.replace(/^\/transform(?=\/|$)/, `/transforms/${index}`) }));
  return new ProblemError("transform_invalid", `transforms[${index}]: ${error.message}`, { errors });
}

function canonicalOf(transform: string, index: number): string {
  let asked: TransformSpec;
  try {
    asked = parseTransform(transform);
  } catch (error) {
    throw pointedInto(error, index);
  }
  if (asked.signature !== undefined) {
    throw new ProblemError("transform_invalid", `transforms[${index}] already carries s_; give the transform without it.`, {
      errors: [{ pointer: `/transforms/${index}`, detail: "leave s_ out: it is what this call adds" }],
    });
  }
  return urlTransform(asked);
}

/**
 * Signs each transform of `source` with the signing secret of `keyId`, a key of `accountId`.
 * Another account's key, a revoked one and an unknown one are the same 404; a key without a signing
 * secret is a 409 that says how to issue one.
 */
export async function signTransforms(env: Pick<Bindings, "DB" | "SIGNING_SECRET">, accountId: string, request: SignRequest, baseUrl: string): Promise<SignedTransform[]> {
  const canonicals = request.transforms.map(canonicalOf);
  // The transform path's own parser reads the source, so a source it would refuse is refused here
  // with the same problem (400 validation_failed, 400 origin_path_invalid, 404).
  const { target } = parseTransformAddress(`${baseUrl}${transformPath(request.keyId, canonicals[0]!, request.source)}`);
  const key = await loadTransformKey(env, request.keyId);
  if (key === null || key.accountId !== accountId) throw new ProblemError("not_found", `No active key ${request.keyId} in this account.`);
  if (key.signingSecret === null) {
    throw new ProblemError("conflict", `Key ${request.keyId} has no signing secret yet: issue one with POST /v1/keys/${request.keyId}/signing-secret (its secret is shown once and never needed here).`);
  }
  const source = signedSource(target);
  return Promise.all(
    canonicals.map(async (canonical, index) => {
      const signature = await transformSignature(key.signingSecret!, canonicalPath(key.keyId, canonical, source));
      return {
        transform: request.transforms[index]!,
        canonical,
        signature,
        url: `${baseUrl}${transformPath(encodeURIComponent(key.keyId), `${canonical},s_${signature}`, source)}`,
      };
    }),
  );
}
