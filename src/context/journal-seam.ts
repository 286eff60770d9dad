/**
 * The step seam of a run with a journal: keys each step by its place in the run tree, answers it from the journal
 * of the run it resumes (when there is one) and appends every completed live step to the run's own journal store.
 * A resumed run's store starts with the original's entries (see `run-journal.ts`), so it can itself be resumed.
 */
import {StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import type {MachineIdentity} from '../internal/machine-identity.ts';
import {findCurrentSpanId} from './replayed-step.ts';
import type {JournalEntry, JournalStore} from './step-journal.ts';
import type {StepCall, StepSeam} from './step-seam.ts';

export interface JournalSeamOptions {
  /** Where this run's completed steps go; without one, steps are keyed and replayed but not kept. */
  store?: JournalStore | undefined;
  /** The journal of the run being resumed. */
  replay?: readonly JournalEntry[] | undefined;
  /** The machine this run runs on: recorded on every completed step (a queued run's, docs/scale-out.md). */
  machine?: MachineIdentity | undefined;
}

interface SeamState {
  store: JournalStore | undefined;
  machine: MachineIdentity | undefined;
  byKey: Map<string, JournalEntry>;
  bySequence: Map<string, JournalEntry>;
  ordinals: Map<string, number>;
  sequences: Map<string, number>;
}

/** The seam of a top-level run whose position in the run tree is `position` (its workflow name). */
export function createJournalSeam(position: string, options: JournalSeamOptions = {}): StepSeam {
  const state: SeamState = {
    store: options.store,
    machine: options.machine,
    byKey: new Map(),
    bySequence: new Map(),
    ordinals: new Map(),
    sequences: new Map(),
  };
  for (const entry of options.replay ?? []) {
    state.byKey.set(entry.key, entry);
    if (entry.sequence !== undefined)
      state.bySequence.set(sequenceKey(positionOf(entry), entry.sequence), entry);
  }
  return seamAt(state, position);
}

function seamAt(state: SeamState, position: string): StepSeam {
  return {
    machine: state.machine,
    within: (key) => seamAt(state, key),
    open: (call: StepCall) => {
      const name = `${position}/${call.kind}:${call.name}`;
      const ordinal = state.ordinals.get(name) ?? 0;
      state.ordinals.set(name, ordinal + 1);
      const sequence = state.sequences.get(position) ?? 0;
      state.sequences.set(position, sequence + 1);
      const key = `${name}#${ordinal}`;
      const args = toJson(call.arguments);
      const recorded = state.byKey.get(key);
      if (recorded !== undefined) {
        if (JSON.stringify(recorded.arguments ?? null) !== JSON.stringify(args)) {
          throw diverged(
            `Step '${key}' was asked with other arguments than the journal holds: now ${preview(args)}, journaled ${preview(recorded.arguments)}.`,
            key,
            recorded.key,
          );
        }
        return {key, recorded, complete: async () => {}};
      }
      const other = state.bySequence.get(sequenceKey(position, sequence));
      if (other !== undefined) {
        throw diverged(
          `Step '${key}' was asked where the journal holds step '${other.key}' (step ${sequence + 1} of its workflow).`,
          key,
          other.key,
        );
      }
      return {
        key,
        recorded: undefined,
        complete: async (outcome, details) => {
          if (state.store === undefined) return;
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

function diverged(message: string, step: string, journaled: string): StratosError {
  return new StratosError(
    'STRATOS_RESUME_DIVERGED',
    `${message} The workflow no longer follows the interrupted run, so nothing more is replayed or done; run it anew with 'stratos run'.`,
    {details: {step, journaled}},
  );
}

/** The step's place in the run tree: its key without the trailing `/<kind>:<name>#<ordinal>`. */
function positionOf(entry: JournalEntry): string {
  const ordinal = entry.key.slice(entry.key.lastIndexOf('#'));
  return entry.key.slice(0, entry.key.length - `/${entry.kind}:${entry.name}${ordinal}`.length);
}

function sequenceKey(position: string, sequence: number): string {
  return `${position}\u0000${sequence}`;
}

function toJson(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as unknown;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
