/**
 * The JSON the page reads from its server (`api/runs`, `api/runs/<id>`): the shapes of `RunsCatalog` and
 * `buildRunView` in `src/viewer/`, restated here because the page is compiled on its own (DOM, no Node types).
 */
export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

export interface RunSummary {
  runId: string;
  executionId: string;
  workflow: string;
  status: 'running' | 'succeeded' | 'failed' | 'cancelled';
  stale: boolean;
  startedAt: string;
  durationMs?: number;
  invocationDirectory: string;
  error?: {code: string; message: string; location?: SourceLocation};
  /** The run folder name of the interrupted run this one resumed. */
  resumedFrom?: string;
  usage: TokenUsage;
  /** What the run and its descendants spent: known USD, calls, calls of unknown cost. */
  cost?: {usd: number; calls: number; unknownCostCalls: number};
}

export interface RunList {
  scope: {all: boolean; directory: string};
  runs: RunSummary[];
}

export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

export interface RecordedError {
  code?: string;
  type?: string;
  message: string;
  location?: SourceLocation;
  causes?: {code?: string; type?: string; message: string}[];
}

export interface ViewSpan {
  spanId: string;
  parentSpanId?: string;
  depth: number;
  kind: string;
  name: string;
  /** The name with a tool call's key argument. */
  label: string;
  workflow: string;
  executionId: string;
  start?: number;
  end?: number;
  status?: string;
  durationMs?: number;
  attributes: Record<string, unknown>;
  error?: RecordedError;
  /** A descendant recorded this same error first: its span id. */
  errorFrom?: string;
  events: {time: number; name: string; attributes?: Record<string, unknown>}[];
  logs: {time: number; level: string; message: string}[];
  descendants: number;
}

export interface ValueSummary {
  type: string;
  keys?: string[];
  preview: string;
  truncated: boolean;
}

export interface RunDetail {
  run: RunSummary;
  record: {
    workflow: {name: string; version: string; directory: string};
    input?: ValueSummary;
    output?: ValueSummary;
    error?: {code: string; message: string};
    diagnostics?: {code: string; message: string}[];
    endedAt?: string;
    cost?: RunCost;
  };
  view: {spans: ViewSpan[]; startMs?: number; endMs?: number};
  unreadableEvents: number;
}

/** Summed usage and cost of a set of model calls (`run.json`'s cost, docs/cost.md). */
export interface SpendTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  reasoningTokens: number;
  tokens: number;
  /** The sum of the known costs. */
  usd: number;
  unknownCostCalls: number;
  unknownUsageCalls: number;
  /** The harness's own figure (Claude Code's). */
  nativeUsd?: number;
}

/** `run.json`'s `cost`: totals, budget, the budget the run hit, one row per invocation, agent or decision, model. */
export interface RunCost extends SpendTotals {
  budget?: {tokens?: number; usd?: number};
  budgetExceeded?: {workflow: string; unit: 'tokens' | 'usd'; spent: number; limit: number; subject: string};
  breakdown: (SpendTotals & {
    executionId: string;
    workflow: string;
    source: 'agent' | 'decision';
    name: string;
    harness?: string;
    provider?: string;
    model?: string;
  })[];
}
