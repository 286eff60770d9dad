/**
 * `stratos test`: a case's scripted decision answers, checked against the questions exactly as a provider's
 * answers are (the System One answer check), so a case cannot return what a model could not. Each answer is written
 * in the answer's own shape: `{choice, probabilities: {option: p}}`, `{score, probabilities: [p, ...]}` or
 * `{noul}`; `type` comes from the question.
 */
import type {SystemOneResponse} from '../providers/ollama/index.ts';
import {readSystemOneResponse} from './ollama-system-one.ts';
import type {ProviderRequest, ProviderResult} from './provider-result.ts';

/**
 * The scripted answers as a provider result.
 * @throws StratosError STRATOS_DECISION_ANSWER_INVALID when an answer does not fit its question.
 */
export function readScriptedAnswers(
  scripted: Record<string, unknown>,
  request: ProviderRequest,
): ProviderResult {
  const answers: Record<string, unknown> = {};
  for (const [name, answer] of Object.entries(scripted)) {
    const question = request.questions[name];
    if (typeof answer !== 'object' || answer === null || question === undefined) {
      answers[name] = answer;
      continue;
    }
    const written = answer as Record<string, unknown>;
    const probabilities = Array.isArray(written.probabilities)
      ? Object.fromEntries(written.probabilities.map((p, index) => [String(index), p]))
      : written.probabilities;
    answers[name] = {
      type: question.type,
      ...written,
      ...(probabilities === undefined ? {} : {probabilities}),
    };
  }
  return readSystemOneResponse(
    {answers, model: request.settings.model} as unknown as SystemOneResponse,
    request,
  );
}
