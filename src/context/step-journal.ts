/**
 * The step journal: where a run's completed steps are kept so that a later run can be answered from them instead of
 * a model, a server, a child or a side effect. One interface, several stores: a JSON-lines file in the local run
 * folder (resume), a PostgreSQL table (the scale-out engine). The execution context carries the run's journal; the
 * step seam consults it before a primitive does real work and appends to it before the result reaches workflow code.
 */
import type {MachineIdentity} from '../internal/machine-identity.ts';

/** The primitives whose calls are steps. */
export type StepKind = 'agent' | 'decision' | 'mcp' | 'child' | 'step';

/** A completed step as the journal keeps it. Everything in it is JSON. */
export interface JournalEntry {
  /**
   * Deterministic identity of the step: the invoking workflow's position in the run tree, the primitive, its name
   * and the ordinal of that key (see `docs/resume.md`).
   */
  key: string;
  kind: StepKind;
  /**
   * The step's order among the steps its workflow invocation started (0, 1, ...): a resumed run that asks for
   * another step at the same place diverges from the journal.
   */
  sequence?: number;
  /** Agent configuration, decision name, `server/tool`, child name or step name. */
  name: string;
  /** What the step was asked: the rendered prompt, the questions, the tool arguments, the child input. */
  arguments: unknown;
  /** The step's result as workflow code saw it, or the error it failed with. */
  outcome: {value: unknown; error?: undefined} | {value?: undefined; error: {code: string; message: string}};
  /** Per-kind facts needed to continue (an agent's native conversation identity, its usage). */
  details?: Record<string, unknown>;
  /** When the step completed (ISO 8601), and the span that recorded it in the original run. */
  completedAt: string;
  spanId?: string;
  /** The machine the step ran on, when the run records it (a queued run's): where its native state lives. */
  machine?: MachineIdentity;
}

/** Where one run's journal lives. */
export interface JournalStore {
  /** Every entry recorded for the run, in the order they were appended. */
  read(): Promise<JournalEntry[]>;
  /** Appends one entry; resolves only once it is durable (flushed to disk, committed). */
  append(entry: JournalEntry): Promise<void>;
}
