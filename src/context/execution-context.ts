/**
 * The execution context of one workflow invocation, carried by AsyncLocalStorage so it follows awaited and
 * parallel work without a mutable global "current workflow". Primitives read it; workflow code never passes it.
 */
import {AsyncLocalStorage} from 'node:async_hooks';
import {StratosError} from '../errors/index.ts';
import type {WorkflowManifest} from '../manifest/index.ts';
import type {InvocationTelemetry, TelemetryAttributes} from '../telemetry/index.ts';
import type {ResourceRegistry} from './resource-registry.ts';
import type {SpendScope} from './spend-scope.ts';
import type {StepSeam} from './step-seam.ts';

/** `overrides` of an invocation input: named agent and decision settings that replace workflow.yaml fields. */
export interface InvocationOverrides {
  agents?: Record<string, Record<string, unknown>>;
  decisions?: Record<string, Record<string, unknown>>;
  /** Replaces the fields of workflow.yaml's `budget` it sets (a parent's binding for a child, or the caller's). */
  budget?: {tokens?: number; usd?: number};
}

/** Admission of agent work: `acquire` waits for a slot (or rejects when the queue is full) and returns `release`. */
export interface AdmissionGate {
  acquire(label: string, signal?: AbortSignal): Promise<() => void>;
}

// Worktrees: the gate agents use for their managed Git checkout (implemented in worktrees/run-worktrees.ts).
/** An agent's request for its worktree: `name` absent for an unnamed one; `cleanup: false` protects it. */
export interface WorktreeRequest {
  agent: string;
  /** The agent's resolved working directory: its repository gets the checkout. */
  directory: string;
  name?: string | undefined;
  cleanup: boolean;
  /** Resume: the step key of the agent's first execute, by which a resumed run finds the checkout it used. */
  key?: string | undefined;
  /** Records an event on the agent's span (creation, reuse, and later the cleanup decision). */
  event: (name: string, attributes: TelemetryAttributes) => void;
}

/** Managed worktrees of one top-level run, shared with its descendants; released when the whole run ends. */
export interface WorktreeGate {
  /**
   * Creates or reuses the checkout; resolves with the harness's working directory, the checkout (its name, root
   * path and branch) and one sentence for the harness.
   */
  acquire(request: WorktreeRequest): Promise<AcquiredWorktree>;
}

/** An agent's checkout as the worktree gate hands it out. */
export interface AcquiredWorktree {
  /** Where the harness works: the checkout's counterpart of the agent's directory, else its root. */
  directory: string;
  name: string;
  /** The checkout's root. */
  path: string;
  branch: string;
  notice: string;
}

/** The workflow an invocation runs. */
export interface InvokedWorkflow {
  name: string;
  directory: string;
  manifest: WorkflowManifest;
  /**
   * The children its build saw (imports of `<root>/.generated/<name>.js`), built before it and type-checked: the
   * only children it may call. Absent only for an invocation made without a build (in-process tests).
   */
  children?: readonly string[];
}

export interface ExecutionContext {
  executionId: string;
  /** The execution id of the top-level run this invocation belongs to (its own id when it is the top). */
  rootExecutionId: string;
  workflow: InvokedWorkflow;
  /** Where the workflow was invoked from; the process directory is never changed. */
  invocationDirectory: string;
  overrides: InvocationOverrides;
  /** Names of the active ancestor workflows, outermost first (for cycle checks). */
  ancestors: readonly string[];
  abortController: AbortController;
  resources: ResourceRegistry;
  /** Tells the person at the terminal something they must act on (a sign-in URL); the CLI shows it on stderr. */
  notify: (message: string) => void;
  /** Agent admission limits, shared by a top-level run and all its children. */
  admission: AdmissionGate;
  /** Records operations (spans and run events) of this invocation: `context.telemetry.operation(...)`. */
  telemetry: InvocationTelemetry;
  startedAt: Date;
  /** Managed Git worktrees of the top-level run (absent outside the invocation pipeline). */
  worktrees?: WorktreeGate;
  /** What this invocation and its descendants spent, under its budget and its ancestors' (absent outside the pipeline). */
  spend?: SpendScope;
  /**
   * The step seam of this invocation: step keys, the journal, and the run's one source of recorded steps that
   * answers them (a resumed run's journal or a `stratos test` case; `step-seam.ts`).
   */
  steps?: StepSeam;
}

const storage = new AsyncLocalStorage<ExecutionContext>();

export function runInExecutionContext<T>(context: ExecutionContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The running invocation's context, or undefined outside any workflow. */
export function findExecutionContext(): ExecutionContext | undefined {
  return storage.getStore();
}

/**
 * The running invocation's context for an execution primitive.
 * @throws STRATOS_RUNTIME_NO_CONTEXT outside a running workflow; STRATOS_RUNTIME_CONTEXT_CLOSED after it ended.
 */
export function requireExecutionContext(primitive: string): ExecutionContext {
  const context = storage.getStore();
  if (context === undefined) {
    throw new StratosError(
      'STRATOS_RUNTIME_NO_CONTEXT',
      `${primitive} was called outside a running workflow. Call it from a workflow's run function (started by 'stratos run' or a child-workflow wrapper), not at module level or from plain scripts.`,
    );
  }
  if (context.resources.closed) {
    throw new StratosError(
      'STRATOS_RUNTIME_CONTEXT_CLOSED',
      `${primitive} was called after workflow '${context.workflow.name}' (execution ${context.executionId}) ended. Await all work inside run.`,
    );
  }
  return context;
}
