// What every framework adapter test shares: the account its URLs are written for, where those
// URLs start, and how to read the refusal an adapter throws.
import { expect } from "vitest";
import { PixelPressError } from "../../api-error.ts";

export const account = { baseUrl: "https://img.example.com", keyId: "key_pub" } as const;

/** Where every canonical transform URL for `account` starts. */
export const transformBase = `${account.baseUrl}/v1/image/t/${account.keyId}`;

/** The problem detail `run` refuses with; a test expecting a refusal fails if `run` throws anything else, or nothing. */
export function refusalDetail(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PixelPressError);
    return (error as PixelPressError).problem.detail;
  }
  throw new Error("expected a refusal");
}
