/**
 * The step seam: the one place where a primitive (agent execute, decision, direct MCP call, child execute,
 * `step()`) asks whether its step is already answered by recorded data, and where it records the step once it
 * completed. The execution context carries the seam of its invocation (`context.steps`); a child invocation gets
 * the seam of the step that started it (`within`), so keys carry the position in the run tree. The seam asks
 * the run's one source of recorded steps (`recorded-steps.ts`: a resumed run's journal or a `stratos test` case)
 * for a step's answer; a primitive asks once (`answer`) and follows one code path for an answered step.
 */
import type {MachineIdentity} from '../internal/machine-identity.ts';
import type {ExecutionContext} from './execution-context.ts';
import type {RecordedAnswer, StepFacts} from './recorded-steps.ts';
import type {JournalEntry, StepKind} from './step-journal.ts';

/** What a primitive is about to do. `arguments` must be JSON data (the rendered prompt, the tool arguments...). */
export interface StepCall {
  kind: StepKind;
  /** Agent configuration, decision name, `server/tool`, child name or step name. */
  name: string;
  arguments: unknown;
  /** The calling workflow's name (a case matches on it); `openStep` sets it. */
  workflow?: string;
}

/** One step as the seam opened it. */
export interface OpenedStep {
  /** The deterministic key: `<position>/<kind>:<name>#<ordinal>`. */
  readonly key: string;
  /** The journaled entry behind this step, when the run's source of recorded steps is a journal (resume). */
  readonly recorded: JournalEntry | undefined;
  /**
   * Asks the run's source of recorded steps for this step's answer, once, when the step runs (with what a case
   * matches on); undefined when the step runs live.
   * @throws StratosError STRATOS_TEST_CALL_UNSCRIPTED when a case scripts no such call.
   */
  answer(facts?: StepFacts): RecordedAnswer | undefined;
  /**
   * Records the completed step (with the span id of the operation calling it); resolves once it is durable, so a
   * result workflow code saw is never lost. Does nothing for an answered step.
   * @throws StratosError STRATOS_RESUME_JOURNAL_FAILED when the journal cannot be written.
   */
  complete(outcome: JournalEntry['outcome'], details?: Record<string, unknown>): Promise<void>;
}

/** The steps of one workflow invocation. */
export interface StepSeam {
  /**
   * Opens the next step of this invocation.
   * @throws StratosError STRATOS_RESUME_DIVERGED when the journal holds another step at this place, or this step
   *   with other arguments.
   */
  open(call: StepCall): OpenedStep;
  /** True when the run's source of recorded steps answers every call of an MCP server (a case scripts it). */
  answersServer(call: {workflow: string; server: string}): boolean;
  /** The seam of the child invocation that the step `key` starts. */
  within(key: string): StepSeam;
  /** The machine this run runs on, when its steps record it (a queued run's). */
  readonly machine?: MachineIdentity | undefined;
}

const untracked: OpenedStep = {
  key: '',
  recorded: undefined,
  answer: () => undefined,
  complete: async () => {},
};

/** Opens a step on the context's seam; outside the invocation pipeline (no seam) the step is neither keyed nor kept. */
export function openStep(context: ExecutionContext, call: StepCall): OpenedStep {
  return context.steps?.open({...call, workflow: context.workflow.name}) ?? untracked;
}
