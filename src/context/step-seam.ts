/**
 * The step seam: the one place where a primitive (agent execute, decision, direct MCP call, child execute,
 * `step()`) asks whether its step is already answered by recorded data, and where it records the step once it
 * completed. The execution context carries the seam of its invocation (`context.steps`); a child invocation gets
 * the seam of the step that started it (`within`), so keys carry the position in the run tree. `stratos test`'s
 * scripted answers (`scripted-answers.ts`) are consulted at the same interception points.
 */
import type {MachineIdentity} from '../internal/machine-identity.ts';
import type {ExecutionContext} from './execution-context.ts';
import type {JournalEntry, StepKind} from './step-journal.ts';

/** What a primitive is about to do. `arguments` must be JSON data (the rendered prompt, the tool arguments...). */
export interface StepCall {
  kind: StepKind;
  /** Agent configuration, decision name, `server/tool`, child name or step name. */
  name: string;
  arguments: unknown;
}

/** One step as the seam opened it. */
export interface OpenedStep {
  /** The deterministic key: `<position>/<kind>:<name>#<ordinal>`. */
  readonly key: string;
  /** The journaled step that answers this one (resume): hand back its outcome instead of doing the work. */
  readonly recorded: JournalEntry | undefined;
  /**
   * Records the completed step (with the span id of the operation calling it); resolves once it is durable, so a
   * result workflow code saw is never lost. Does nothing for a replayed step.
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
  /** The seam of the child invocation that the step `key` starts. */
  within(key: string): StepSeam;
  /** The machine this run runs on, when its steps record it (a queued run's). */
  readonly machine?: MachineIdentity | undefined;
}

const untracked: OpenedStep = {key: '', recorded: undefined, complete: async () => {}};

/** Opens a step on the context's seam; outside the invocation pipeline (no seam) the step is neither keyed nor kept. */
export function openStep(context: ExecutionContext, call: StepCall): OpenedStep {
  return context.steps?.open(call) ?? untracked;
}
