/** A failure the user can fix (missing key, unknown command, endpoint not deployed): printed without a stack. */
export class CliError extends Error {
  override name = "CliError";
}
