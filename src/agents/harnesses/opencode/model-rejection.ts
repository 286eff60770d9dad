/**
 * OpenCode's structured evidence that a model is unavailable, for selection (design philosophy, "Choose
 * deliberately; fall back narrowly"). Evidence is an error object, never its message text:
 * - `ProviderModelNotFoundError`: OpenCode itself does not know the model for the provider;
 * - `APIError` with HTTP 404 whose provider response body carries the provider's own code: OpenAI's
 *   `error.code: "model_not_found"`, or Anthropic's `error.type: "not_found_error"` (as Claude Code reads it).
 * It counts only on the conversation's first prompt and before any work: the session holds at most one user
 * message and its assistant messages have no text, reasoning, tool, file, patch or sub-agent part.
 */
import {ModelUnavailableError} from '../../harness-kit/model-unavailable-error.ts';

/** Parts that record steps, not work (a step's start and end, a worktree snapshot, a retry notice). */
const bookkeepingParts = new Set(['step-start', 'step-finish', 'snapshot', 'retry']);

interface SessionMessages {
  session: {
    messages(options: {path: {id: string}}): Promise<{
      data?: {info: {role: string}; parts: {type: string}[]}[] | undefined;
    }>;
  };
}

/**
 * The rejection as a ModelUnavailableError when `error` (an assistant message's error, or the error of a failed
 * prompt request) is structured evidence and the session did no work; otherwise undefined.
 */
export async function findModelRejection(
  client: SessionMessages,
  sessionId: string,
  error: unknown,
  model: string | undefined,
): Promise<ModelUnavailableError | undefined> {
  const evidence = readEvidence(error);
  if (evidence === undefined) return undefined;
  let messages: {info: {role: string}; parts: {type: string}[]}[] | undefined;
  try {
    messages = (await client.session.messages({path: {id: sessionId}})).data;
  } catch {
    return undefined;
  }
  if (messages === undefined) return undefined;
  const prompts = messages.filter((message) => message.info.role === 'user').length;
  const worked = messages.some(
    (message) =>
      message.info.role === 'assistant' && message.parts.some((part) => !bookkeepingParts.has(part.type)),
  );
  // OpenCode may refuse an unknown model before it stores the prompt.
  if (prompts > 1 || worked) return undefined;
  return new ModelUnavailableError(
    `OpenCode could not use model '${model ?? 'default'}' (${evidence.name}${evidence.status === undefined ? '' : `, HTTP ${evidence.status}`}).`,
    {evidence: evidence.name, status: evidence.status, cause: error},
  );
}

/** The evidence's name (`ProviderModelNotFoundError`, `model_not_found`, `not_found_error`) and HTTP status. */
function readEvidence(error: unknown): {name: string; status?: number} | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const {name, data} = error as {name?: unknown; data?: unknown};
  if (name === 'ProviderModelNotFoundError') return {name};
  if (name !== 'APIError' || typeof data !== 'object' || data === null) return undefined;
  const {statusCode, responseBody} = data as {statusCode?: unknown; responseBody?: unknown};
  if (statusCode !== 404 || typeof responseBody !== 'string') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(responseBody);
  } catch {
    return undefined;
  }
  const detail = (body as {error?: unknown} | null)?.error;
  if (typeof detail !== 'object' || detail === null) return undefined;
  const {code, type} = detail as {code?: unknown; type?: unknown};
  if (code === 'model_not_found') return {name: 'model_not_found', status: 404};
  if (type === 'not_found_error') return {name: 'not_found_error', status: 404};
  return undefined;
}
