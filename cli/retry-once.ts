// A call the service may answer on a second try: one stopped at its deadline (processing_timeout,
// not charged) or refused for now (503, the origin busy). It is sent again once after a back-off,
// as a new call with a new Idempotency-Key, so the first answer is not replayed. When the second
// fails too, the error says what the user can change.
import { PixelPressError } from "../clients/ts/index.ts";
import { slugOfType } from "../contracts/problems/catalogue.ts";

/** The back-off before the second try: long enough for a busy machine's queue to move. */
export const RETRY_BACKOFF_MS = 2_000;

export function worthOneRetry(error: unknown): boolean {
  return error instanceof PixelPressError && (error.status === 503 || slugOfType(error.problem.type) === "processing_timeout");
}

/** Runs `call`, and once more after `backoffMs` when it fails in a way a second try may not; `advice` is added to a second such failure. */
export async function retryOnce<T>(call: () => Promise<T>, advice: string, backoffMs = RETRY_BACKOFF_MS): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!worthOneRetry(error)) throw error;
  }
  await new Promise((resolve) => setTimeout(resolve, backoffMs * (0.75 + Math.random() / 2)));
  try {
    return await call();
  } catch (error) {
    if (!worthOneRetry(error)) throw error;
    throw new Error(`${(error as Error).message} (tried twice) ${advice}`, { cause: error });
  }
}
