// The README's token list for GET /v1/image/t/... is written by hand; this holds it to the
// registry, so a declared token cannot be missing from it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TRANSFORM_TOKENS } from "./registry.ts";

const README = new URL("../../README.md", import.meta.url);
const ROW_START = "| `GET /v1/image/t/{key_id}/{transform}/{file_id}` |";

function transformRow(): string {
  const row = readFileSync(README, "utf8")
    .split("\n")
    .find((line) => line.startsWith(ROW_START));
  if (row === undefined) throw new Error(`README.md has no row starting ${ROW_START}`);
  return row;
}

describe("the README's transform row", () => {
  it("names every token the registry declares", () => {
    const row = transformRow();
    const missing = TRANSFORM_TOKENS.map((declaration) => `\`${declaration.prefix}_`).filter((spelling) => !row.includes(spelling));
    expect(missing).toEqual([]);
  });
});
