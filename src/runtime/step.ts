/**
 * step(name, fn): any side effect of a workflow as a journaled step. Its JSON result (or its error) is written to
 * the run's journal before it is handed back, so a resumed run returns it at once instead of running `fn` again.
 * One `step` span records it (`stratos.replayed` when it came from the journal).
 */
import {requireExecutionContext} from '../context/execution-context.ts';
import {describeReplayedStep, journaledFailure, replayOutcome} from '../context/replayed-step.ts';
import {openStep} from '../context/step-seam.ts';
import {StratosError} from '../errors/index.ts';
import {findNonJsonValue} from '../internal/non-json-value.ts';

/**
 * Runs `fn` once per run as the journaled step `name`; a resumed run gets the journaled result instead.
 * @throws StratosError STRATOS_STEP_INVALID (no name or function), STRATOS_STEP_RESULT_INVALID (a result that is
 *   not JSON data), STRATOS_RESUME_DIVERGED, STRATOS_RESUME_JOURNAL_FAILED, or what `fn` threw.
 * @example
 * const issue = await step('open issue', () => tracker.create({title}));
 */
export async function step<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
  if (typeof name !== 'string' || name.trim() === '' || typeof fn !== 'function') {
    throw new StratosError(
      'STRATOS_STEP_INVALID',
      "step() takes a non-empty name and a function: step('open issue', () => ...).",
    );
  }
  const context = requireExecutionContext(`step('${name}')`);
  const opened = openStep(context, {kind: 'step', name, arguments: null});
  return context.telemetry.operation(
    {
      kind: 'step',
      name: `step ${name}`,
      attributes: {'stratos.step.name': name, 'stratos.step.key': opened.key},
    },
    async (scope) => {
      // Only a journal answers a step() (a case scripts none): its recorded result is handed back.
      const recorded = opened.answer();
      if (recorded?.source === 'journal') {
        scope.setAttributes(describeReplayedStep(recorded.entry));
        return replayOutcome(recorded.entry) as T;
      }
      let value: T;
      try {
        value = await fn();
      } catch (error) {
        const failure = journaledFailure(error);
        if (failure !== undefined) await opened.complete(failure);
        throw error;
      }
      const problem =
        value === undefined
          ? undefined
          : findNonJsonValue(value, 'the result', {skipUndefinedProperties: true});
      if (problem !== undefined) {
        throw new StratosError(
          'STRATOS_STEP_RESULT_INVALID',
          `Step '${name}' returned a value that is not JSON data: ${problem}. Return text, numbers, booleans, null, arrays and plain objects (or nothing).`,
          {details: {step: name}},
        );
      }
      await opened.complete({value: value === undefined ? null : value});
      return value;
    },
  );
}
