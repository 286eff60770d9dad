/**
 * Thrown by a harness adapter when the first model request of a conversation was rejected with structured
 * evidence that the model is unavailable (a provider error code, not a guessed message), before any output,
 * reasoning, tool work or background work. Only this error lets selection move on to the next prepared candidate.
 */
export class ModelUnavailableError extends Error {
  /**
   * The native evidence: Claude Code's `model_not_found`; OpenCode's `ProviderModelNotFoundError`, or the
   * provider's `model_not_found` / `not_found_error` code in a 404 response body.
   */
  readonly evidence: string;
  /** The HTTP status the harness reported with it, when it reported one. */
  readonly status: number | undefined;

  constructor(message: string, options: {evidence: string; status?: number | undefined; cause?: unknown}) {
    super(message, {cause: options.cause});
    this.name = 'ModelUnavailableError';
    this.evidence = options.evidence;
    this.status = options.status;
  }
}
