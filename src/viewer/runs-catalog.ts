/**
 * The runs the page may show: the run records of one invocation directory (or of every directory), plus a run
 * named on the command line. Reads run.json and events.jsonl only; never writes. A run's token usage is read
 * from its events once per version of its events.jsonl (size and modification time).
 */
import {stat} from 'node:fs/promises';
import {join} from 'node:path';
import {EVENTS_FILE, type RunRecord} from '../telemetry/artifacts/run-record.ts';
import {
  buildRunTree,
  readRunEvents,
  readStoredRuns,
  type StoredRun,
  type TokenUsage,
  totalUsage,
} from '../telemetry/artifacts/run-store.ts';
import {buildRunView, type RunView, usageOfView} from './run-view.ts';

export interface CatalogScope {
  home: string;
  /** Runs of this invocation directory only; every directory's runs when absent. */
  workspacePath?: string;
  /** A run shown even when it belongs to another directory (the one named on the command line). */
  includeRunId?: string;
}

export interface CatalogRun {
  runId: string;
  executionId: string;
  workflow: string;
  status: RunRecord['status'];
  /** `running` in run.json but its process is gone. */
  stale: boolean;
  startedAt: string;
  durationMs?: number;
  invocationDirectory: string;
  error?: {code: string; message: string};
  /** The run folder name of the interrupted run this one resumed. */
  resumedFrom?: string;
  /** Summed over operations that reported usage; absent counts are unknown. */
  usage: TokenUsage;
  /** run.json's cost totals (descendants included): known USD, calls, calls of unknown cost (docs/cost.md). */
  cost?: {usd: number; calls: number; unknownCostCalls: number};
}

export interface CatalogRunDetail {
  run: CatalogRun;
  record: Pick<RunRecord, 'workflow' | 'input' | 'output' | 'error' | 'diagnostics' | 'endedAt' | 'cost'>;
  view: RunView;
  unreadableEvents: number;
}

export class RunsCatalog {
  readonly #scope: CatalogScope;
  readonly #usage = new Map<string, {version: string; usage: TokenUsage}>();

  constructor(scope: CatalogScope) {
    this.#scope = scope;
  }

  /** The runs in scope, newest first. */
  async list(): Promise<CatalogRun[]> {
    const runs = await this.#stored();
    return Promise.all(runs.map(async (stored) => summarize(stored, await this.#usageOf(stored))));
  }

  /** One run in scope by its folder name; undefined when no run in scope has it. */
  async detail(runId: string): Promise<CatalogRunDetail | undefined> {
    const stored = (await this.#stored()).find((s) => s.record.runId === runId);
    if (stored === undefined) return undefined;
    const version = await this.#version(stored);
    const {events, unreadableLines} = await readRunEvents(stored.directory);
    const view = buildRunView(events);
    const usage = usageOfView(view);
    if (version !== undefined) this.#usage.set(stored.directory, {version, usage});
    const {record} = stored;
    return {
      run: summarize(stored, usage),
      record: {
        workflow: record.workflow,
        input: record.input,
        ...(record.output === undefined ? {} : {output: record.output}),
        ...(record.error === undefined ? {} : {error: record.error}),
        ...(record.diagnostics === undefined ? {} : {diagnostics: record.diagnostics}),
        ...(record.endedAt === undefined ? {} : {endedAt: record.endedAt}),
        ...(record.cost === undefined ? {} : {cost: record.cost}),
      },
      view,
      unreadableEvents: unreadableLines,
    };
  }

  async #stored(): Promise<StoredRun[]> {
    const {home, workspacePath, includeRunId} = this.#scope;
    // The page writes nothing: a run whose process is gone is shown stale, not reconciled.
    if (workspacePath === undefined) return readStoredRuns(home, {reconcile: false});
    const all = await readStoredRuns(home, {reconcile: false});
    return all.filter((s) => s.workspacePath === workspacePath || s.record.runId === includeRunId);
  }

  /** Size and modification time of the run's events.jsonl; undefined when it cannot be read. */
  async #version(stored: StoredRun): Promise<string | undefined> {
    try {
      const facts = await stat(join(stored.directory, EVENTS_FILE));
      return `${facts.size}:${facts.mtimeMs}`;
    } catch {
      return undefined;
    }
  }

  async #usageOf(stored: StoredRun): Promise<TokenUsage> {
    const version = await this.#version(stored);
    if (version === undefined) return {};
    const cached = this.#usage.get(stored.directory);
    if (cached?.version === version) return cached.usage;
    try {
      const usage = totalUsage(buildRunTree((await readRunEvents(stored.directory)).events));
      this.#usage.set(stored.directory, {version, usage});
      return usage;
    } catch {
      return {};
    }
  }
}

function summarize(stored: StoredRun, usage: TokenUsage): CatalogRun {
  const {record} = stored;
  return {
    runId: record.runId,
    executionId: record.executionId,
    workflow: record.workflow?.name ?? '(unknown)',
    status: record.status,
    stale: stored.stale,
    startedAt: record.startedAt,
    ...(record.durationMs === undefined ? {} : {durationMs: record.durationMs}),
    invocationDirectory: record.invocationDirectory,
    ...(record.error === undefined ? {} : {error: record.error}),
    ...(record.resumedFrom === undefined ? {} : {resumedFrom: record.resumedFrom}),
    usage,
    ...(record.cost === undefined
      ? {}
      : {
          cost: {
            usd: record.cost.usd,
            calls: record.cost.calls,
            unknownCostCalls: record.cost.unknownCostCalls,
          },
        }),
  };
}
