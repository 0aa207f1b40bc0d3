// The stores' query builder over the D1 binding. One drizzle handle per binding, since a handle
// only wraps the binding and every store call would otherwise build its own.
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "./schema.ts";

export type Orm = DrizzleD1Database<typeof schema>;

const handles = new WeakMap<D1Database, Orm>();

export function orm(db: D1Database): Orm {
  let handle = handles.get(db);
  if (!handle) {
    handle = drizzle(db, { schema });
    handles.set(db, handle);
  }
  return handle;
}
