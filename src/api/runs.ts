/** `stratos runs list` and `stratos runs show`: the local run records of `<STRATOS_HOME>/runs/`. */
import {type SourceLocation, StratosError} from '../errors/index.ts';
import {
  buildRunTree,
  type RunTreeNode,
  readRunEvents,
  readStoredRuns,
  type StoredRun,
  type TokenUsage,
  totalUsage,
} from '../telemetry/artifacts/run-store.ts';
import type {RunStatus} from '../telemetry/index.ts';
import {findStoredRun} from './find-run.ts';
import {type HostOptions, resolveHost} from './host.ts';

export {describeStatus} from '../telemetry/artifacts/status-words.ts';
export type {RunTreeNode, TokenUsage};

export interface RunSummary {
  runId: string;
  executionId: string;
  workflow: string;
  /** `failed` with `stale: true`: the process that ran it ended without a result (a crash or a kill). */
  status: RunStatus;
  stale: boolean;
  startedAt: string;
  durationMs?: number;
  invocationDirectory: string;
  /** The run folder holding run.json, run.log and events.jsonl. */
  directory: string;
  /** The run folder name of the interrupted run this one resumed (`stratos runs resume`). */
  resumedFrom?: string;
  /** `location`: the workflow's own frame of an error its code threw (`workflow.ts`, line, column). */
  error?: {code: string; message: string; location?: SourceLocation};
}

export interface ListRunsOptions extends HostOptions {
  /** Runs of every invocation directory, not only the current one. */
  all?: boolean;
  /** Newest first, at most this many; default 20. */
  limit?: number;
}

export interface ListRunsResult {
  runs: RunSummary[];
  /** How many matched before the limit. */
  total: number;
}

/** Recent runs, newest first: of the invocation directory by default, of every directory with `all`. */
export async function listRuns(options: ListRunsOptions = {}): Promise<ListRunsResult> {
  const host = resolveHost(options);
  const stored = await readStoredRuns(host.home, options.all === true ? {} : {workspacePath: host.cwd});
  return {runs: stored.slice(0, options.limit ?? 20).map(summarize), total: stored.length};
}

export interface ShowRunResult {
  run: RunSummary;
  tree: RunTreeNode[];
  /** Summed over operations that reported usage; absent counts are unknown, not zero. */
  usage: TokenUsage;
  /** events.jsonl lines that could not be parsed (a crash mid-write); they are not guessed at. */
  unreadableEvents: number;
}

export interface ShowRunOptions extends HostOptions {
  /** Keep each node's console lines (`console`), not only their count. */
  console?: boolean;
}

/**
 * One run and its tree of workflows, agents, tool calls and decisions.
 * `target`: the run folder name, its execution id, or a unique prefix of either.
 * @throws StratosError STRATOS_RUNS_NOT_FOUND, STRATOS_RUNS_AMBIGUOUS, STRATOS_RUNS_UNREADABLE.
 */
export async function showRun(target: string, options: ShowRunOptions = {}): Promise<ShowRunResult> {
  const host = resolveHost(options);
  const run = await findStoredRun(host.home, target);
  let events: Awaited<ReturnType<typeof readRunEvents>>;
  try {
    events = await readRunEvents(run.directory);
  } catch (error) {
    throw new StratosError(
      'STRATOS_RUNS_UNREADABLE',
      `The events of run ${run.record.runId} cannot be read: ${(error as Error).message}`,
      {
        cause: error,
        details: {directory: run.directory},
      },
    );
  }
  const tree = buildRunTree(events.events, {console: options.console === true});
  return {run: summarize(run), tree, usage: totalUsage(tree), unreadableEvents: events.unreadableLines};
}

function summarize(stored: StoredRun): RunSummary {
  const {record} = stored;
  return {
    runId: record.runId,
    executionId: record.executionId,
    workflow: record.workflow.name,
    status: record.status,
    stale: stored.stale,
    startedAt: record.startedAt,
    ...(record.durationMs === undefined ? {} : {durationMs: record.durationMs}),
    invocationDirectory: record.invocationDirectory,
    directory: stored.directory,
    ...(record.error === undefined ? {} : {error: record.error}),
    ...(record.resumedFrom === undefined ? {} : {resumedFrom: record.resumedFrom}),
  };
}

export {startRunRetention} from './run-retention.ts';
