import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { verifyTransformSignature } from "../../contracts/transform/signature.ts";
import type { TransformKey } from "./transform-key.ts";
import type { TransformTarget } from "./transform-request.ts";

export { transformPath as canonicalPath } from "../../contracts/transform/path.ts";

/** The source as a signature covers it: a file id, or the origin's name and the path under it as written. */
export function signedSource(target: TransformTarget): string {
  return target.kind === "file" ? target.fileId : `${target.name}${target.path}`;
}

/** A given `s_` must verify; none is accepted only when the account does not require one. */
export async function checkTransformSignature(key: TransformKey, path: string, signature: string | undefined): Promise<void> {
  if (signature === undefined) {
    if (!key.requireSigned) return;
    throw new ProblemError("transform_signature_invalid", "This account requires signed transform URLs: add s_<signature> for the canonical path.");
  }
  if (key.signingSecret === null) {
    throw new ProblemError("transform_signature_invalid", `Key ${key.keyId} has no signing secret, so its transform URLs cannot carry s_.`);
  }
  if (!(await verifyTransformSignature(key.signingSecret, path, signature))) {
    throw new ProblemError("transform_signature_invalid", `s_ does not match ${path}.`, { extensions: { canonical_path: path } });
  }
}
