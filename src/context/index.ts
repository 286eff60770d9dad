export {
  type AdmissionGate,
  type ExecutionContext,
  findExecutionContext,
  type InvocationOverrides,
  type InvokedWorkflow,
  requireExecutionContext,
  runInExecutionContext,
} from './execution-context.ts';
export {createJournalSeam, type JournalSeamOptions} from './journal-seam.ts';
export {JOURNAL_FILE, openJsonlJournalStore, readJournalFile} from './jsonl-journal-store.ts';
export {type CleanupFailure, type OwnedResource, ResourceRegistry} from './resource-registry.ts';
export type {
  ScriptedAgentAnswer,
  ScriptedAnswers,
  ScriptedChildAnswer,
  ScriptedToolResult,
} from './scripted-answers.ts';
export type {JournalEntry, JournalStore, StepKind} from './step-journal.ts';
export {type OpenedStep, openStep, type StepCall, type StepSeam} from './step-seam.ts';
