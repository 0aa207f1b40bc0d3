// The fields of a resolved transform as plain data: each token declares the fields it decides
// (registry.ts) with these shapes, the operation's type is read from them (ResolvedTransform), and the
// origin's wire schema is built from them (operand-schema.ts). No schema library is imported here:
// the browser URL builder reaches the registry.

export interface Range {
  readonly min: number;
  readonly max: number;
}

export type OperandShape =
  | { readonly kind: "integer"; readonly range: Range }
  | { readonly kind: "number"; readonly range: Range }
  | { readonly kind: "choice"; readonly values: readonly (string | number)[] }
  | { readonly kind: "pattern"; readonly pattern: RegExp }
  | { readonly kind: "flag" }
  | { readonly kind: "true" }
  | { readonly kind: "record"; readonly fields: OperandMap }
  | { readonly kind: "either"; readonly options: readonly Operand<unknown, "required">[] };

/** `optional`: may be absent; `defaulted`: absent on the wire means `fallback`, and the operation always has it. */
export type Presence = "required" | "optional" | "defaulted";

export interface Operand<Value, P extends Presence = Presence> {
  readonly shape: OperandShape;
  readonly presence: P;
  readonly fallback?: Value;
  /** Never set: carries the value's type to OperandValues. */
  readonly value?: Value;
}

export type OperandMap = Readonly<Record<string, Operand<unknown>>>;

type ValueOf<O> = O extends Operand<infer Value> ? Value : never;
type Flat<T> = { [K in keyof T]: T[K] };

/** The values a map of operands holds once read: an optional field may be absent, a defaulted one never is. */
export type OperandValues<M> = Flat<
  { -readonly [K in keyof M as M[K] extends Operand<unknown, "optional"> ? never : K]: ValueOf<M[K]> } & {
    -readonly [K in keyof M as M[K] extends Operand<unknown, "optional"> ? K : never]?: ValueOf<M[K]>;
  }
>;

/** The values as a sender writes them: a defaulted field may be left out too. */
export type OperandInputs<M> = Flat<
  { -readonly [K in keyof M as M[K] extends Operand<unknown, "required"> ? K : never]: ValueOf<M[K]> } & {
    -readonly [K in keyof M as M[K] extends Operand<unknown, "required"> ? never : K]?: ValueOf<M[K]>;
  }
>;

export function integer(range: Range): Operand<number, "required"> {
  return { shape: { kind: "integer", range }, presence: "required" };
}

/** Any number in the range, fractions included. */
export function decimal(range: Range): Operand<number, "required"> {
  return { shape: { kind: "number", range }, presence: "required" };
}

export function choice<const Value extends string | number>(values: readonly Value[]): Operand<Value, "required"> {
  return { shape: { kind: "choice", values }, presence: "required" };
}

export function pattern(expression: RegExp): Operand<string, "required"> {
  return { shape: { kind: "pattern", pattern: expression }, presence: "required" };
}

export const flag: Operand<boolean, "required"> = { shape: { kind: "flag" }, presence: "required" };

/** Present only as `true` (f_json's facts). */
export const onlyTrue: Operand<true, "required"> = { shape: { kind: "true" }, presence: "required" };

/** An object of exactly these fields; they may be optional but not defaulted. */
export function record<const Fields extends Readonly<Record<string, Operand<unknown, "required" | "optional">>>>(fields: Fields): Operand<OperandValues<Fields>, "required"> {
  return { shape: { kind: "record", fields }, presence: "required" };
}

export function either<A, B>(first: Operand<A, "required">, second: Operand<B, "required">): Operand<A | B, "required"> {
  return { shape: { kind: "either", options: [first, second] }, presence: "required" };
}

export function optional<Value>(operand: Operand<Value, "required">): Operand<Value, "optional"> {
  return { shape: operand.shape, presence: "optional" };
}

export function withDefault<Value>(operand: Operand<Value, "required">, fallback: NoInfer<Value>): Operand<Value, "defaulted"> {
  return { shape: operand.shape, presence: "defaulted", fallback };
}
