// What each kind of request sent to the one shared D1 database before any account state moved out
// of it: counted by workers/db/shared-statements.test.ts on main at 1127e64 (docs/scale.md, the
// "before" column). Recorded, not measured in this run: that tree is gone; the model prices the
// design it had with these.
import type { TrafficKind } from "./traffic-mix.ts";

export const STATEMENTS_BEFORE_THE_MOVE: Record<TrafficKind, number> = {
  transformHit: 0,
  transformMiss: 6 + 3,
  optimize: 3 + 4,
  pdfCompress: 7 + 14,
  xlsx: 3 + 4,
};
