import { describe, expect, it } from "vitest";
import { CliError } from "../cli-error.ts";
import { imageOptions } from "./optimize.ts";

describe("imageOptions", () => {
  it("takes a --format the API offers, checked by the API's own schema", () => {
    expect(imageOptions({ format: "webp", width: "640" })).toEqual({ format: "webp", width: 640 });
    expect(imageOptions({ format: "source" })).toEqual({ format: "source" });
  });

  it("refuses one it does not, naming the choices, before anything is sent", () => {
    expect(() => imageOptions({ format: "gif" })).toThrow(CliError);
    expect(() => imageOptions({ format: "gif" })).toThrow(/--format must be one of jpeg, webp, avif, png, auto, source, not gif/);
  });
});
