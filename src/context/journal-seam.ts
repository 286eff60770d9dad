/**
 * The step seam of a run: keys each step by its place in the run tree, asks the run's one source of recorded
 * steps (`recorded-steps.ts`: the journal of the run it resumes, or a `stratos test` case) for its answer, and
 * appends every completed live step to the run's own journal store. A resumed run's store starts with the
 * original's entries (see `run-journal.ts`), so it can itself be resumed.
 */
import {StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import type {MachineIdentity} from '../internal/machine-identity.ts';
import {createJournalSource} from './journal-source.ts';
import type {RecordedAnswer, RecordedSteps} from './recorded-steps.ts';
import {findCurrentSpanId} from './replayed-step.ts';
import type {JournalEntry, JournalStore} from './step-journal.ts';
import type {StepCall, StepSeam} from './step-seam.ts';

export interface JournalSeamOptions {
  /** Where this run's completed steps go; without one, steps are keyed and replayed but not kept. */
  store?: JournalStore | undefined;
  /** The journal of the run being resumed (its source of recorded steps, unless `source` is given). */
  replay?: readonly JournalEntry[] | undefined;
  /** The source of recorded steps that answers this run's steps (a `stratos test` case). */
  source?: RecordedSteps | undefined;
  /** The machine this run runs on: recorded on every completed step (a queued run's, docs/scale-out.md). */
  machine?: MachineIdentity | undefined;
}

interface SeamState {
  store: JournalStore | undefined;
  machine: MachineIdentity | undefined;
  source: RecordedSteps | undefined;
  ordinals: Map<string, number>;
  sequences: Map<string, number>;
}

/** The seam of a top-level run whose position in the run tree is `position` (its workflow name). */
export function createJournalSeam(position: string, options: JournalSeamOptions = {}): StepSeam {
  const state: SeamState = {
    store: options.store,
    machine: options.machine,
    source:
      options.source ?? (options.replay === undefined ? undefined : createJournalSource(options.replay)),
    ordinals: new Map(),
    sequences: new Map(),
  };
  return seamAt(state, position);
}

function seamAt(state: SeamState, position: string): StepSeam {
  return {
    machine: state.machine,
    within: (key) => seamAt(state, key),
    answersServer: (call) => state.source?.answersServer(call) === true,
    open: (call: StepCall) => {
      const name = `${position}/${call.kind}:${call.name}`;
      const ordinal = state.ordinals.get(name) ?? 0;
      state.ordinals.set(name, ordinal + 1);
      const sequence = state.sequences.get(position) ?? 0;
      state.sequences.set(position, sequence + 1);
      const key = `${name}#${ordinal}`;
      const args = toJson(call.arguments);
      const lookup = state.source?.open({key, position, sequence, call, arguments: args});
      const recorded = state.source?.journaled?.(key);
      let answered: RecordedAnswer | undefined;
      return {
        key,
        recorded,
        answer: (facts = {}) => {
          answered = lookup?.(facts);
          return answered;
        },
        complete: async (outcome, details) => {
          // An answered step was recorded already (a journal) or is not the run's own work (a case).
          if (state.store === undefined || answered !== undefined || recorded !== undefined) return;
          const entry: JournalEntry = {
            key,
            kind: call.kind,
            sequence,
            name: call.name,
            arguments: args,
            outcome,
            ...(details === undefined ? {} : {details}),
            completedAt: new Date().toISOString(),
          };
          const spanId = findCurrentSpanId();
          if (spanId !== undefined) entry.spanId = spanId;
          if (state.machine !== undefined) entry.machine = state.machine;
          try {
            await state.store.append(entry);
          } catch (error) {
            throw new StratosError(
              'STRATOS_RESUME_JOURNAL_FAILED',
              `Step '${key}' completed but could not be written to the run's journal: ${describeError(error)}. Free disk space or fix the run folder's permissions, then resume the run.`,
              {cause: error, details: {step: key}},
            );
          }
        },
      };
    },
  };
}

function toJson(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as unknown;
}
