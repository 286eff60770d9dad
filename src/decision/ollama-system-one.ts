/**
 * The Ollama decision request for decision models (the `decision` capability): Ollama's own `/v1/systemone`
 * API answers each question with its probabilities. Stratos checks the answers against the questions and keeps
 * the provider's values as they are: nothing is normalised, rounded or re-ranked.
 */
import {StratosError} from '../errors/index.ts';
import type {OllamaClient, SystemOneRequest, SystemOneResponse} from '../providers/ollama/index.ts';
import type {ProviderAnswer, ProviderRequest, ProviderResult} from './provider-result.ts';

/** Ollama's limit on one System One request body. */
export const systemOneMaxBytes = 64 * 1024;

export function buildSystemOneRequest(request: ProviderRequest): SystemOneRequest {
  const questions: SystemOneRequest['questions'] = {};
  for (const [name, question] of Object.entries(request.questions)) {
    if (question.type === 'choice') {
      questions[name] = {
        type: 'choice',
        instructions: question.instructions,
        criteria: Object.fromEntries(question.options.map((option) => [option.name, option.description])),
      };
    } else if (question.type === 'score') {
      questions[name] = {type: 'score', instructions: question.instructions, criteria: [...question.levels]};
    } else {
      questions[name] = {
        type: 'noul',
        instructions: question.instructions,
        ...(question.criteria === undefined ? {} : {criteria: {...question.criteria}}),
      };
    }
  }
  const body: SystemOneRequest = {
    model: request.settings.model,
    state: request.state as SystemOneRequest['state'],
    questions,
  };
  const bytes = Buffer.byteLength(JSON.stringify(body), 'utf8');
  if (bytes > systemOneMaxBytes) {
    throw new StratosError(
      'STRATOS_DECISION_STATE_TOO_LARGE',
      `${request.label}: the request is ${bytes} bytes, over the ${systemOneMaxBytes}-byte limit of Ollama's decision API. Nothing was sent; Stratos does not truncate inputs. Pass a smaller state or split the decision.`,
      {details: {bytes, limit: systemOneMaxBytes}},
    );
  }
  return body;
}

export async function askSystemOne(
  client: OllamaClient,
  request: ProviderRequest,
  signal: AbortSignal,
): Promise<ProviderResult> {
  const response = await client.systemOne(buildSystemOneRequest(request), signal);
  return readSystemOneResponse(response, request);
}

/** The answers of a System One response, each checked against its question; values are kept as sent. */
export function readSystemOneResponse(response: SystemOneResponse, request: ProviderRequest): ProviderResult {
  const fail = (why: string) =>
    new StratosError(
      'STRATOS_DECISION_ANSWER_INVALID',
      `${request.label}: ${why}. The answer was not retried.`,
    );
  const raw = (response as {answers?: unknown}).answers;
  if (typeof raw !== 'object' || raw === null) throw fail('the response has no answers');
  const received = raw as Record<string, Record<string, unknown>>;
  const extra = Object.keys(received).filter((name) => !(name in request.questions));
  if (extra.length > 0) throw fail(`the response answers questions that were not asked: ${extra.join(', ')}`);
  const answers: Record<string, ProviderAnswer> = {};
  for (const [name, question] of Object.entries(request.questions)) {
    const answer = received[name];
    if (typeof answer !== 'object' || answer === null) throw fail(`there is no answer for '${name}'`);
    if (answer.type !== question.type)
      throw fail(`'${name}' was answered as ${String(answer.type)}, not ${question.type}`);
    const confidence = answer.confidence;
    if (confidence !== undefined && !isProbability(confidence))
      throw fail(`the confidence of '${name}' is not in [0, 1]`);
    const withConfidence = confidence === undefined ? {} : {confidence: confidence as number};
    if (question.type === 'choice') {
      const options = question.options.map((option) => option.name);
      if (typeof answer.choice !== 'string' || !options.includes(answer.choice)) {
        throw fail(
          `'${name}' chose ${JSON.stringify(answer.choice)}, which is not one of ${options.join(', ')}`,
        );
      }
      const probabilities = readDistribution(answer.probabilities, options, name, fail);
      answers[name] = {type: 'choice', choice: answer.choice, probabilities, ...withConfidence};
    } else if (question.type === 'score') {
      const levels = question.levels.map((_, index) => String(index));
      const distribution = readDistribution(answer.probabilities, levels, name, fail);
      const value = answer.score;
      if (
        typeof value !== 'number' ||
        !Number.isFinite(value) ||
        value < 0 ||
        value > question.levels.length - 1
      ) {
        throw fail(
          `the score of '${name}' is ${JSON.stringify(value)}, outside levels 0 to ${question.levels.length - 1}`,
        );
      }
      answers[name] = {
        type: 'score',
        score: value,
        probabilities: levels.map((level) => distribution[level]!),
        ...withConfidence,
      };
    } else {
      if (!isProbability(answer.noul))
        throw fail(`the noul of '${name}' is ${JSON.stringify(answer.noul)}, not a probability`);
      answers[name] = {type: 'noul', noul: answer.noul as number};
    }
  }
  const usage = (response as {usage?: {input_tokens?: unknown; output_tokens?: unknown}}).usage;
  return {
    answers,
    model: typeof response.model === 'string' ? response.model : request.settings.model,
    usage: {
      ...(typeof usage?.input_tokens === 'number' ? {inputTokens: usage.input_tokens} : {}),
      ...(typeof usage?.output_tokens === 'number' ? {outputTokens: usage.output_tokens} : {}),
    },
  };
}

function readDistribution(
  value: unknown,
  keys: readonly string[],
  name: string,
  fail: (why: string) => StratosError,
): Record<string, number> {
  if (typeof value !== 'object' || value === null) throw fail(`'${name}' has no probabilities`);
  const record = value as Record<string, unknown>;
  const names = Object.keys(record);
  if (names.length !== keys.length || !keys.every((key) => isProbability(record[key]))) {
    throw fail(`the probabilities of '${name}' must give each of ${keys.join(', ')} a number in [0, 1]`);
  }
  return Object.fromEntries(keys.map((key) => [key, record[key] as number]));
}

function isProbability(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;
}
