/**
 * decision(): one native structured request that answers several independent questions about one state, with
 * the provider's probabilities. One `decision` span under the calling workflow records the state, questions,
 * answers, model, usage and every attempt (redacted like everything else); the question builders have none.
 */
import {requireExecutionContext} from '../context/execution-context.ts';
import {describeReplayedStep, replayOutcome} from '../context/replayed-step.ts';
import {openStep} from '../context/step-seam.ts';
import {isStratosError, StratosError} from '../errors/index.ts';
import {findNonJsonValue} from '../internal/non-json-value.ts';
import {type DecisionConfig, resolveDecisionSettings} from './decision-settings.ts';
import type {DecisionMethod} from './ollama-decision.ts';
import type {DecisionAnswers, Question} from './questions.ts';
import type {AttemptRecord} from './request-policy.ts';

/** JSON data: the state a decision is about. An array is one state value, not a batch. */
export type DecisionState =
  | string
  | number
  | boolean
  | null
  | readonly DecisionState[]
  | {readonly [key: string]: DecisionState};

export interface DecisionRequest<Questions extends Record<string, Question>> {
  state: DecisionState;
  /** Named questions from choice(), score() and noul(); the names key the answers. */
  questions: Questions;
  /** A workflow.yaml `decisions` name, or settings (with an optional `name` to start from). Default: `default`. */
  config?: string | DecisionConfig;
  /** Stops the request and any retry wait, like the end of the invocation does. */
  signal?: AbortSignal;
}

const questionName = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * Answers the questions about the state with one request to the configured provider.
 * @throws StratosError STRATOS_RUNTIME_NO_CONTEXT, STRATOS_DECISION_QUESTION_INVALID, STRATOS_DECISION_STATE_INVALID,
 *   STRATOS_DECISION_CONFIG_UNKNOWN, STRATOS_DECISION_CONFIG_INVALID, STRATOS_DECISION_PROVIDER_UNSUPPORTED,
 *   STRATOS_OLLAMA_ENDPOINT_INVALID, STRATOS_OLLAMA_MODEL_NOT_INSTALLED, STRATOS_OLLAMA_MODEL_CAPABILITY_MISSING,
 *   STRATOS_DECISION_STATE_TOO_LARGE, STRATOS_DECISION_LOGPROBS_MISSING, STRATOS_DECISION_ANSWER_INVALID,
 *   STRATOS_DECISION_REQUEST_FAILED, STRATOS_DECISION_CANCELLED.
 * @example
 * const {team, urgent} = await decision({
 *   state: {ticket},
 *   questions: {team: choice('Which team handles this ticket?', ['billing', 'bug']), urgent: noul('It needs action today.')},
 *   config: 'triage',
 * });
 * if (team.choice === 'bug' && urgent.noul > 0.8) await page();
 */
export async function decision<const Questions extends Record<string, Question>>(
  request: DecisionRequest<Questions>,
): Promise<DecisionAnswers<Questions>> {
  if (typeof request !== 'object' || request === null) {
    throw new StratosError(
      'STRATOS_DECISION_QUESTION_INVALID',
      'decision() takes one object: {state, questions, config?}.',
    );
  }
  checkQuestions(request.questions);
  checkState(request.state);
  const context = requireExecutionContext('decision()');
  const settings = resolveDecisionSettings(context, request.config);
  const label = `Decision '${settings.name}'`;
  const signal =
    request.signal === undefined
      ? context.abortController.signal
      : AbortSignal.any([context.abortController.signal, request.signal]);
  const attempts: AttemptRecord[] = [];
  const step = openStep(context, {
    kind: 'decision',
    name: settings.name,
    arguments: {state: request.state, questions: request.questions},
  });
  return context.telemetry.operation(
    {
      kind: 'decision',
      name: `decision ${settings.name}`,
      attributes: {
        'stratos.decision.name': settings.name,
        'stratos.decision.provider': settings.provider,
        'gen_ai.provider.name': settings.provider,
        'gen_ai.request.model': settings.model,
        'stratos.decision.state': JSON.stringify(request.state),
        'stratos.decision.questions': JSON.stringify(request.questions),
        'stratos.decision.question_names': Object.keys(request.questions),
      },
    },
    async (scope) => {
      // Recorded data answers the decision in place of the model: a journal's answers as recorded, a case's
      // scripted answers checked like a provider's.
      const recorded = step.answer();
      if (recorded?.source === 'journal') {
        scope.setAttributes(describeReplayedStep(recorded.entry));
        return replayOutcome(recorded.entry) as DecisionAnswers<Questions>;
      }
      if (recorded !== undefined) {
        const {readScriptedAnswers} = await import('./scripted-answers.ts');
        const result = readScriptedAnswers(recorded.value as Record<string, unknown>, {
          label,
          settings,
          state: request.state,
          questions: request.questions,
        });
        scope.setAttributes({
          'stratos.decision.scripted': true,
          'stratos.decision.answers': JSON.stringify(result.answers),
          'stratos.decision.attempts': 0,
        });
        return result.answers as DecisionAnswers<Questions>;
      }
      // The budget check and cost accounting (decision-spend.ts) load with the provider, not with the entry.
      const {checkDecisionBudget, recordDecisionSpend} = await import('./decision-spend.ts');
      checkDecisionBudget(context, scope, settings.name);
      const {askOllama} = await import('./ollama-decision.ts');
      try {
        const result = await askOllama(
          {label, settings, state: request.state, questions: request.questions},
          {
            signal,
            onAttempt: (record) => {
              attempts.push(record);
              scope.addEvent('decision.attempt', {...record});
            },
            onMethod: (method: DecisionMethod, endpoint) =>
              scope.setAttributes({'stratos.decision.method': method, 'server.address': endpoint}),
          },
        );
        scope.setAttributes({
          'stratos.decision.answers': JSON.stringify(result.answers),
          'gen_ai.response.model': result.model,
          'gen_ai.usage.input_tokens': result.usage.inputTokens,
          'gen_ai.usage.output_tokens': result.usage.outputTokens,
          'stratos.decision.attempts': attempts.length,
          ...recordDecisionSpend(context, settings, result),
        });
        await step.complete({value: result.answers});
        return result.answers as DecisionAnswers<Questions>;
      } catch (error) {
        scope.setAttributes({'stratos.decision.attempts': attempts.length});
        throw isStratosError(error)
          ? error
          : new StratosError('STRATOS_INTERNAL', `${label} failed unexpectedly: ${String(error)}`, {
              cause: error,
            });
      }
    },
  );
}

function checkQuestions(questions: unknown): asserts questions is Record<string, Question> {
  if (typeof questions !== 'object' || questions === null || Array.isArray(questions)) {
    throw new StratosError(
      'STRATOS_DECISION_QUESTION_INVALID',
      'decision() questions must be an object of named questions, such as {team: choice(...)}.',
    );
  }
  const entries = Object.entries(questions);
  if (entries.length === 0)
    throw new StratosError('STRATOS_DECISION_QUESTION_INVALID', 'decision() needs at least one question.');
  for (const [name, question] of entries) {
    if (!questionName.test(name)) {
      throw new StratosError(
        'STRATOS_DECISION_QUESTION_INVALID',
        `The question name '${name}' is not usable: names start with a letter or '_' and hold letters, digits, '_' or '-' (at most 64).`,
      );
    }
    const shape = question as {
      type?: unknown;
      instructions?: unknown;
      options?: unknown;
      levels?: unknown;
    } | null;
    const type = shape?.type;
    const wellFormed =
      typeof shape?.instructions === 'string' &&
      ((type === 'choice' && Array.isArray(shape.options)) ||
        (type === 'score' && Array.isArray(shape.levels)) ||
        type === 'noul');
    if (!wellFormed) {
      throw new StratosError(
        'STRATOS_DECISION_QUESTION_INVALID',
        `The question '${name}' is not a question; build it with choice(), score() or noul().`,
      );
    }
  }
}

function checkState(state: unknown): void {
  const problem = findNonJsonValue(state, 'state', {skipUndefinedProperties: false});
  if (problem !== undefined) {
    throw new StratosError(
      'STRATOS_DECISION_STATE_INVALID',
      `The decision state is not JSON data: ${problem}. Pass text, numbers, booleans, null, arrays and plain objects.`,
    );
  }
}
