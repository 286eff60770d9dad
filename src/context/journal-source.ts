/**
 * The journal of the run being resumed as a source of recorded steps: a step whose key the journal holds is
 * answered with its journaled outcome; a step asked with other arguments, or where the journal holds another
 * step, diverges.
 */
import {StratosError} from '../errors/index.ts';
import type {KeyedStep, RecordedSteps} from './recorded-steps.ts';
import type {JournalEntry} from './step-journal.ts';

/** The recorded steps of a journal (the entries of the run being resumed). */
export function createJournalSource(entries: readonly JournalEntry[]): RecordedSteps {
  const byKey = new Map<string, JournalEntry>();
  const bySequence = new Map<string, JournalEntry>();
  for (const entry of entries) {
    byKey.set(entry.key, entry);
    if (entry.sequence !== undefined) bySequence.set(sequenceKey(positionOf(entry), entry.sequence), entry);
  }
  return {
    answersServer: () => false,
    journaled: (key) => byKey.get(key),
    open: (step: KeyedStep) => {
      const {key} = step;
      const recorded = byKey.get(key);
      if (recorded !== undefined) {
        if (JSON.stringify(recorded.arguments ?? null) !== JSON.stringify(step.arguments)) {
          throw diverged(
            `Step '${key}' was asked with other arguments than the journal holds: now ${preview(step.arguments)}, journaled ${preview(recorded.arguments)}.`,
            key,
            recorded.key,
          );
        }
        return () => ({source: 'journal', entry: recorded});
      }
      const other = bySequence.get(sequenceKey(step.position, step.sequence));
      if (other !== undefined) {
        throw diverged(
          `Step '${key}' was asked where the journal holds step '${other.key}' (step ${step.sequence + 1} of its workflow).`,
          key,
          other.key,
        );
      }
      return () => undefined;
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

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
