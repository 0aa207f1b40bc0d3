// Counts every statement a request sends to the shared D1 database, read or write, alone or in a
// batch, so a test can hold each hot path to its budget (workers/db/statement-budgets.ts). The
// binding is wrapped, not mocked: every statement still runs on the real local D1.

export interface StatementTally {
  reads: number;
  writes: number;
  /** Statements on the key index (`api_keys`): cross-account, they stay in D1 when account state moves to per-account shards. */
  keyIndex: number;
  /** The SQL of every statement in the order sent, for the message of a budget that fails. */
  sql: string[];
}

export const emptyTally = (): StatementTally => ({ reads: 0, writes: 0, keyIndex: 0, sql: [] });

const WRITE = /^\s*(insert|update|delete|replace|create|drop|alter)\b/i;
const WRITING_CTE = /^\s*with\b[\s\S]*\b(insert|update|delete)\b/i;

function count(tally: StatementTally, sql: string): void {
  if (WRITE.test(sql) || WRITING_CTE.test(sql)) tally.writes++;
  else tally.reads++;
  if (/\bapi_keys\b/i.test(sql)) tally.keyIndex++;
  tally.sql.push(sql.replace(/\s+/g, " ").slice(0, 160));
}

/**
 * `db` with every executed statement counted into `tally`. A prepared statement is counted when it
 * runs (first, all, run, raw) and each member of a batch once; preparing or binding sends nothing.
 */
export function meteredD1(db: D1Database, tally: StatementTally): D1Database {
  const originals = new WeakMap<object, { statement: D1PreparedStatement; sql: string }>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped: D1PreparedStatement = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => wrap(target.bind(...values), sql);
        if (property === "first" || property === "all" || property === "run" || property === "raw") {
          return (...args: unknown[]) => {
            count(tally, sql);
            return (target[property] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    originals.set(wrapped, { statement, sql });
    return wrapped;
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          const sent = statements.map((statement) => {
            const original = originals.get(statement);
            if (!original) throw new Error("a batch member was prepared outside the metered binding");
            count(tally, original.sql);
            return original.statement;
          });
          return target.batch(sent);
        };
      }
      if (property === "exec") {
        return (sql: string) => {
          for (const part of sql.split(";").filter((s) => s.trim())) count(tally, part);
          return target.exec(sql);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
