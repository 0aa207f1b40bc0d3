import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ORIGIN_ALLOCATOR_ENV } from "./allocator-env.ts";

/** The variables the Dockerfile's ENV instructions set (`ENV A=1 B=2`, one or several per line). */
function dockerfileEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^ENV\s+(.*)$/.exec(line.trim());
    if (!match) continue;
    for (const pair of match[1]!.split(/\s+/)) {
      const [key, value] = pair.split("=");
      if (key && value !== undefined) env[key] = value;
    }
  }
  return env;
}

describe("the origin's allocator settings", () => {
  it("are set by the container image that runs the origin in production", () => {
    const env = dockerfileEnv(readFileSync(new URL("./Dockerfile", import.meta.url), "utf8"));
    expect(env).toMatchObject(ORIGIN_ALLOCATOR_ENV);
  });
});
