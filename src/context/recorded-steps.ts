/**
 * Recorded steps: the one source of recorded data a step seam asks for the answer to an opened step. A run's
 * seam has one source: the journal of the run it resumes (`journal-source.ts`, the JSONL file or the engine's
 * PostgreSQL rows) or the case `stratos test` runs (`src/cases/case-source.ts`). Every primitive asks its opened
 * step once (`OpenedStep.answer`) and follows one code path for an answered step; what differs per source is
 * data: a journaled answer was validated when it was recorded and is handed back as it was, a case's answer is
 * validated (and passes the agent's hooks) like a model's or a server's.
 */
import type {JournalEntry} from './step-journal.ts';
import type {StepCall} from './step-seam.ts';

/** A step as the seam keyed it, when it asks its source. */
export interface KeyedStep {
  readonly key: string;
  /** The step's place in the run tree (the key without `/<kind>:<name>#<ordinal>`). */
  readonly position: string;
  /** Its index among the steps opened at that place. */
  readonly sequence: number;
  readonly call: StepCall;
  /** The call's arguments as JSON data (what a journal holds). */
  readonly arguments: unknown;
}

/** What a primitive knows only once the step runs, for a source that matches on it (a case). */
export interface StepFacts {
  /** An agent's rendered prompt. */
  prompt?: string;
  /** A direct MCP call's server and tool. */
  server?: string;
  tool?: string;
  /** A child workflow's input as passed. */
  input?: unknown;
}

/** A recorded answer to one step. */
export type RecordedAnswer =
  | {
      /** Journaled by the run being resumed: already validated, handed back as recorded. */
      source: 'journal';
      entry: JournalEntry;
    }
  | {
      /** Scripted by a `stratos test` case: validated like a live answer. */
      source: 'case';
      /** The kind's scripted answer (`ScriptedAgentAnswer`, decision answers, `ScriptedToolResult`, `ScriptedChildAnswer`). */
      value: unknown;
      /** Reports that the answer's own contract refuses it (a child's output schema); the case then fails. */
      reject?: (problem: string) => void;
    };

/** The lookup of one opened step: undefined when the step runs live. */
export type AnswerLookup = (facts: StepFacts) => RecordedAnswer | undefined;

/** One source of recorded steps. */
export interface RecordedSteps {
  /**
   * Called when a step opens, in call order; returns how to look up its answer once the step runs.
   * @throws StratosError STRATOS_RESUME_DIVERGED when a journal holds another step at this place.
   */
  open(step: KeyedStep): AnswerLookup;
  /** True when the source answers every call of MCP server `server` (it then connects to nothing). */
  answersServer(call: {workflow: string; server: string}): boolean;
  /** The journaled entry of the step `key`, when the source is a journal. */
  journaled?(key: string): JournalEntry | undefined;
}
