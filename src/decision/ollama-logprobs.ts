/**
 * The Ollama decision request for completion models: `/api/chat` with the questions' JSON schema as `format` and
 * `logprobs` with the top 20 candidates per token; the probabilities come from those log-probabilities, never from
 * a number the model writes. A response without them is an error, not a guess.
 */
import {StratosError} from '../errors/index.ts';
import type {ChatResponse, OllamaClient, OllamaModelInfo} from '../providers/ollama/index.ts';
import {computeOptionProbabilities, type GeneratedToken} from './answer-probabilities.ts';
import {buildConstrainedPrompt, estimateTokens, type PreparedQuestion} from './decision-prompt.ts';
import {findJsonValueOffsets} from './json-value-offsets.ts';
import type {ProviderAnswer, ProviderRequest, ProviderResult} from './provider-result.ts';
import type {Question} from './questions.ts';

/** Ollama's upper bound for `top_logprobs`. */
const topLogprobs = 20;
/** Room left for the answer object itself. */
const answerTokensPerQuestion = 16;

export function prepareLogprobsRequest(request: ProviderRequest, info: OllamaModelInfo) {
  const prompt = buildConstrainedPrompt(request.state, request.questions);
  const loaded = request.settings.options?.num_ctx;
  const context = typeof loaded === 'number' ? loaded : info.contextLength;
  const estimate =
    estimateTokens(prompt.system) +
    estimateTokens(prompt.user) +
    answerTokensPerQuestion * prompt.questions.length;
  if (context !== undefined && estimate > context) {
    throw new StratosError(
      'STRATOS_DECISION_STATE_TOO_LARGE',
      `${request.label}: the state and questions need about ${estimate} tokens, more than the ${context}-token context ${typeof loaded === 'number' ? 'set by options.num_ctx' : `that model '${request.settings.model}' advertises`}. Nothing was sent; Stratos does not truncate inputs. Pass a smaller state or split the decision.`,
      {details: {estimatedTokens: estimate, contextLength: context, model: request.settings.model}},
    );
  }
  return {
    prompt,
    body: {
      model: request.settings.model,
      messages: [
        {role: 'system', content: prompt.system},
        {role: 'user', content: prompt.user},
      ],
      format: prompt.schema,
      logprobs: true,
      top_logprobs: topLogprobs,
      ...(info.capabilities.includes('thinking') ? {think: false} : {}),
      ...(request.settings.options === undefined ? {} : {options: request.settings.options}),
    },
  };
}

/** Sends the request once (the caller applies the retry policy) and reads the answers. */
export async function askWithLogprobs(
  client: OllamaClient,
  request: ProviderRequest,
  info: OllamaModelInfo,
  signal: AbortSignal,
): Promise<ProviderResult> {
  const {prompt, body} = prepareLogprobsRequest(request, info);
  const response = await client.chat(body, signal);
  return readLogprobsResponse(response, prompt.questions, request.label);
}

/** The answers of a chat response, validated against the questions. */
export function readLogprobsResponse(
  response: ChatResponse,
  questions: readonly PreparedQuestion[],
  label: string,
): ProviderResult {
  const content = typeof response.message?.content === 'string' ? response.message.content : '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw invalidAnswer(label, `the answer is not JSON: ${JSON.stringify(content.slice(0, 200))}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidAnswer(label, 'the answer is not a JSON object');
  }
  const names = questions.map((q) => q.name);
  const extra = Object.keys(parsed).filter((key) => !names.includes(key));
  if (extra.length > 0)
    throw invalidAnswer(label, `the answer has fields no question asked: ${extra.join(', ')}`);
  for (const prepared of questions) {
    const value = (parsed as Record<string, unknown>)[prepared.name];
    if (value === undefined) throw invalidAnswer(label, `the answer has no field '${prepared.name}'`);
    if (!prepared.literals.some((literal) => JSON.parse(literal) === value)) {
      throw invalidAnswer(
        label,
        `'${prepared.name}' is ${JSON.stringify(value)}, not one of the allowed answers`,
      );
    }
  }
  const tokens = response.logprobs as GeneratedToken[] | undefined;
  if (!Array.isArray(tokens) || tokens.length === 0) {
    throw new StratosError(
      'STRATOS_DECISION_LOGPROBS_MISSING',
      `${label}: model '${response.model}' answered without token log-probabilities, so no probability can be given. Use an Ollama server that returns logprobs (0.12.11 or later) or a model with the decision capability.`,
      {details: {model: response.model}},
    );
  }
  const text = tokens.map((token) => token.token).join('');
  const start = text.indexOf(content.trim());
  if (start === -1) throw invalidAnswer(label, 'the log-probability tokens do not spell the answer');
  const offsets = findJsonValueOffsets(text, start);
  if (offsets === undefined) throw invalidAnswer(label, 'the answer is not one JSON object');
  const answers: Record<string, ProviderAnswer> = {};
  for (const prepared of questions) {
    const offset = offsets.get(prepared.name);
    if (offset === undefined) throw invalidAnswer(label, `the answer has no field '${prepared.name}'`);
    const selected = prepared.literals.findIndex((literal) => text.startsWith(literal, offset));
    if (selected === -1) {
      throw invalidAnswer(
        label,
        `'${prepared.name}' is ${JSON.stringify(text.slice(offset, offset + 20))}, not one of the allowed answers`,
      );
    }
    const result = computeOptionProbabilities(tokens, text, offset, prepared.literals);
    if (!result.ok) {
      throw new StratosError(
        result.problem.kind === 'misaligned'
          ? 'STRATOS_DECISION_ANSWER_INVALID'
          : 'STRATOS_DECISION_LOGPROBS_MISSING',
        `${label}: no probabilities for '${prepared.name}': ${result.problem.message}. The server must return top_logprobs for the answer tokens.`,
        {details: {question: prepared.name}},
      );
    }
    answers[prepared.name] = toAnswer(prepared.question, selected, result.probabilities);
  }
  return {
    answers,
    model: response.model,
    usage: {
      ...(typeof response.prompt_eval_count === 'number' ? {inputTokens: response.prompt_eval_count} : {}),
      ...(typeof response.eval_count === 'number' ? {outputTokens: response.eval_count} : {}),
    },
  };
}

function toAnswer(question: Question, selected: number, probabilities: number[]): ProviderAnswer {
  if (question.type === 'choice') {
    return {
      type: 'choice',
      choice: question.options[selected]!.name,
      probabilities: Object.fromEntries(
        question.options.map((option, k) => [option.name, probabilities[k]!]),
      ),
    };
  }
  if (question.type === 'score') {
    return {
      type: 'score',
      score: probabilities.reduce((sum, p, level) => sum + p * level, 0),
      probabilities,
    };
  }
  return {type: 'noul', noul: probabilities[0]!};
}

function invalidAnswer(label: string, why: string): StratosError {
  return new StratosError('STRATOS_DECISION_ANSWER_INVALID', `${label}: ${why}. The answer was not retried.`);
}
