// How long the origin may work on one call, from its arrival (queueing included) to its answer,
// by the rule the operation making the call declares for its endpoint (contracts/operations.ts).
// At its deadline a call is answered `processing_timeout` and not charged; the edge stops waiting a
// little after (ORIGIN_CALL_GRACE_MS).
import { operationDeclarations, operations, type Operation } from "../operations.ts";
import type { DeadlineRule } from "./deadline-rule.ts";

type Declarations = typeof operationDeclarations;

/** Every origin endpoint some operation calls. */
export type DeadlinePath = { [Name in Operation]: keyof Declarations[Name]["origin"] }[Operation];

/** Each origin endpoint's rule, from the operation that declares it. */
export const ORIGIN_DEADLINES = Object.fromEntries(operations.flatMap((name) => Object.entries(operationDeclarations[name].origin))) as Record<DeadlinePath, DeadlineRule>;

/** What the edge waits beyond the origin's deadline for its answer (the network, a framed problem). */
export const ORIGIN_CALL_GRACE_MS = 5_000;

const MIB = 1024 * 1024;

export function isDeadlinePath(path: string): path is DeadlinePath {
  return Object.hasOwn(ORIGIN_DEADLINES, path);
}

/** The origin's deadline for a call to `path` with `inputBytes` of input, whose pipeline works on `megapixels` (0 when not counted). */
export function originDeadlineMs(path: DeadlinePath, inputBytes: number, megapixels = 0): number {
  const rule: DeadlineRule = ORIGIN_DEADLINES[path];
  const pixelsMs = Math.max(0, megapixels) * (rule.perMegapixelMs ?? 0);
  return Math.min(rule.maxMs, Math.round(rule.baseMs + (Math.max(0, inputBytes) / MIB) * rule.perMiBMs + pixelsMs));
}

/**
 * How long the edge waits for the origin's answer: the deadline for this size and the grace; the
 * ceiling when the size is unknown or the origin also counts pixels, which the edge does not decode.
 */
export function originCallTimeoutMs(path: DeadlinePath, inputBytes: number | null): number {
  const rule: DeadlineRule = ORIGIN_DEADLINES[path];
  const byBytes = inputBytes !== null && rule.perMegapixelMs === undefined;
  return (byBytes ? originDeadlineMs(path, inputBytes) : rule.maxMs) + ORIGIN_CALL_GRACE_MS;
}
