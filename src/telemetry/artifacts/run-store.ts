/**
 * Reading recorded runs back: the run records under `<home>/runs/` and the tree of one run's events.jsonl.
 * The tree shows what was recorded and nothing more: a node without an end record has no status or duration,
 * and token usage is summed only from operations that reported it.
 */
import {readdir, readFile, stat} from 'node:fs/promises';
import {join} from 'node:path';
import {StratosError} from '../../errors/index.ts';
import {writeFileAtomic} from '../../internal/atomic-write.ts';
import {isNotFound, isRecord} from '../../internal/json-file.ts';
import {isProcessAlive} from '../../internal/process-alive.ts';
import {attributeNames} from '../model/conventions.ts';
import {markErrorOrigins} from './error-origins.ts';
import {readWorkspacePath, runsDirectory} from './run-folders.ts';
import {EVENTS_FILE, type EventRecord, type RecordedError, RUN_FILE, type RunRecord} from './run-record.ts';
import {labelSpan} from './span-label.ts';

export interface StoredRun {
  record: RunRecord;
  /** The run folder. */
  directory: string;
  /** The absolute invocation directory the workspace folder stands for. */
  workspacePath: string | undefined;
  /**
   * The run's process ended without recording a result (a crash or SIGKILL). Such a run is reconciled the first
   * time it is read: run.json then says `failed` with STRATOS_RUN_INTERRUPTED.
   */
  stale: boolean;
}

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

export interface RunTreeNode {
  /** `workflow`, an operation kind (`mcp.call`, `agent.execute`, `decision` ...) or `event`. */
  kind: string;
  name: string;
  spanId: string;
  executionId: string;
  workflow: string;
  startedAt?: string;
  /** Absent when no end was recorded. */
  status?: string;
  durationMs?: number;
  error?: RecordedError;
  /**
   * Set when a descendant recorded this same error first: the span id where it happened. Readers show the error
   * there and not again here.
   */
  errorFrom?: string;
  /** The name with a tool call's key argument (`tools/call read_text_file path=src/x.ts`); set by buildRunTree. */
  label?: string;
  /** Only when the operation reported it. */
  usage?: TokenUsage;
  consoleMessages: number;
  /** The console lines written while it was active (with `stratos runs show --console`). */
  console?: {time: string; level: string; message: string}[];
  attributes?: Record<string, unknown>;
  children: RunTreeNode[];
}

/**
 * Every readable run record under the home, newest first; `workspace` limits them to one invocation directory.
 * A run whose process is gone is reconciled in run.json unless `reconcile` is false (readers that write nothing,
 * such as the runs page, still see it as stale).
 */
export async function readStoredRuns(
  home: string,
  options: {workspacePath?: string; reconcile?: boolean} = {},
): Promise<StoredRun[]> {
  const runs: StoredRun[] = [];
  for (const workspace of await listFolders(runsDirectory(home))) {
    const folder = join(runsDirectory(home), workspace);
    let workspacePath: string | undefined;
    try {
      workspacePath = await readWorkspacePath(folder);
    } catch {
      workspacePath = undefined;
    }
    if (options.workspacePath !== undefined && workspacePath !== options.workspacePath) continue;
    for (const runId of await listFolders(folder)) {
      const directory = join(folder, runId);
      let record = await readRunRecord(directory);
      if (record === undefined) continue;
      const gone = record.status === 'running' && !isProcessAlive(record.pid);
      if (gone && options.reconcile !== false) record = await reconcileInterruptedRun(directory, record);
      const stale = gone || record.error?.code === 'STRATOS_RUN_INTERRUPTED';
      runs.push({record, directory, workspacePath, stale});
    }
  }
  return runs.sort((a, b) => (a.record.runId < b.record.runId ? 1 : -1));
}

/**
 * A `running` record whose process is gone gets its final state: `failed` with STRATOS_RUN_INTERRUPTED, ended at
 * its last recorded event (or the last write of its folder). Written atomically; a failed write changes nothing.
 */
async function reconcileInterruptedRun(directory: string, record: RunRecord): Promise<RunRecord> {
  const {events} = await readRunEvents(directory).catch(() => ({events: [] as EventRecord[]}));
  const last = events.at(-1)?.time;
  const endedAt =
    last ??
    (await stat(join(directory, RUN_FILE))
      .then((info) => info.mtime.toISOString())
      .catch(() => record.startedAt));
  const reconciled: RunRecord = {
    ...record,
    status: 'failed',
    endedAt,
    durationMs: Math.max(0, Date.parse(endedAt) - Date.parse(record.startedAt)),
    error: {
      code: 'STRATOS_RUN_INTERRUPTED',
      message: `The process (pid ${record.pid}) running workflow '${record.workflow.name}' ended before it recorded a result: it was killed or crashed.`,
    },
  };
  try {
    await writeFileAtomic(join(directory, RUN_FILE), `${JSON.stringify(reconciled, null, 2)}\n`, {
      mode: 0o600,
    });
  } catch {
    // Read-only or full: the record is still shown reconciled; a later read tries again.
  }
  return reconciled;
}

export async function readRunRecord(directory: string): Promise<RunRecord | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(join(directory, RUN_FILE), 'utf8'));
    return isRecord(parsed) && typeof parsed.runId === 'string'
      ? (parsed as unknown as RunRecord)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The parsed lines of events.jsonl; a line that does not parse is counted, never guessed at. */
export async function readRunEvents(
  directory: string,
): Promise<{events: EventRecord[]; unreadableLines: number}> {
  let text: string;
  try {
    text = await readFile(join(directory, EVENTS_FILE), 'utf8');
  } catch (error) {
    if (isNotFound(error)) return {events: [], unreadableLines: 0};
    throw error;
  }
  const events: EventRecord[] = [];
  let unreadableLines = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      events.push(JSON.parse(line) as EventRecord);
    } catch {
      unreadableLines++;
    }
  }
  return {events: events.sort((a, b) => a.seq - b.seq), unreadableLines};
}

/**
 * The tree of workflows, operations and events: each node under the span it was recorded in. `console`: keep the
 * console lines themselves on their nodes, not only their count.
 */
export function buildRunTree(
  events: readonly EventRecord[],
  options: {console?: boolean} = {},
): RunTreeNode[] {
  const nodes = new Map<string, RunTreeNode>();
  const parents = new Map<RunTreeNode, string | undefined>();
  const order: RunTreeNode[] = [];
  const nodeFor = (event: EventRecord, kind: string, name: string): RunTreeNode => {
    let node = nodes.get(event.spanId);
    if (node === undefined) {
      node = {
        kind,
        name,
        label: name,
        spanId: event.spanId,
        executionId: event.executionId,
        workflow: event.workflow,
        consoleMessages: 0,
        children: [],
      };
      nodes.set(event.spanId, node);
      parents.set(node, event.parentSpanId);
      order.push(node);
    }
    return node;
  };
  const leaves: {parent: string; node: RunTreeNode}[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'workflow.start':
      case 'operation.start': {
        const node = nodeFor(event, event.kind ?? 'workflow', event.name ?? event.workflow);
        node.startedAt = event.time;
        if (event.attributes !== undefined) node.attributes = event.attributes;
        break;
      }
      case 'workflow.end':
      case 'operation.end': {
        const node = nodeFor(event, event.kind ?? 'workflow', event.name ?? event.workflow);
        if (event.status !== undefined) node.status = event.status;
        if (event.durationMs !== undefined) node.durationMs = event.durationMs;
        if (event.error !== undefined) node.error = event.error;
        if (event.attributes !== undefined) node.attributes = event.attributes;
        const usage = usageOf(event.attributes);
        if (usage !== undefined) node.usage = usage;
        break;
      }
      case 'event': {
        // A usage report without timed boundaries (Codex's turn usage, a model completion without a start).
        const usage = usageOf(event.attributes);
        leaves.push({
          parent: event.spanId,
          node: {
            kind: 'event',
            name: event.name ?? '',
            label: event.name ?? '',
            spanId: event.spanId,
            executionId: event.executionId,
            workflow: event.workflow,
            startedAt: event.time,
            consoleMessages: 0,
            ...(usage === undefined ? {} : {usage}),
            ...(event.attributes === undefined ? {} : {attributes: event.attributes}),
            children: [],
          },
        });
        break;
      }
      case 'console': {
        const node = nodes.get(event.spanId);
        if (node !== undefined) {
          node.consoleMessages++;
          if (options.console === true) {
            node.console ??= [];
            node.console.push({time: event.time, level: event.level ?? 'log', message: event.message ?? ''});
          }
        }
        break;
      }
    }
  }
  const roots: RunTreeNode[] = [];
  for (const node of order) {
    const parent = nodes.get(parents.get(node) ?? '');
    (parent?.children ?? roots).push(node);
  }
  for (const leaf of leaves) nodes.get(leaf.parent)?.children.push(leaf.node);
  for (const node of order) node.label = labelSpan(node.name, node.attributes);
  markErrorOrigins(roots);
  return roots;
}

/** Sum of the usage the tree's operations reported; a count no operation reported stays absent. */
export function totalUsage(nodes: readonly RunTreeNode[]): TokenUsage {
  const total: TokenUsage = {};
  const visit = (node: RunTreeNode): void => {
    // Usage is counted at the innermost level that reported it: an agent span's total and its model calls' usage
    // would otherwise be added twice.
    const childUsage = node.children.some((child) => hasUsage(child));
    if (node.usage !== undefined && !childUsage) {
      if (node.usage.inputTokens !== undefined)
        total.inputTokens = (total.inputTokens ?? 0) + node.usage.inputTokens;
      if (node.usage.outputTokens !== undefined)
        total.outputTokens = (total.outputTokens ?? 0) + node.usage.outputTokens;
    }
    for (const child of node.children) visit(child);
  };
  for (const node of nodes) visit(node);
  return total;
}

function hasUsage(node: RunTreeNode): boolean {
  return node.usage !== undefined || node.children.some(hasUsage);
}

function usageOf(attributes: Record<string, unknown> | undefined): TokenUsage | undefined {
  const input = attributes?.[attributeNames.inputTokens];
  const output = attributes?.[attributeNames.outputTokens];
  if (typeof input !== 'number' && typeof output !== 'number') return undefined;
  return {
    ...(typeof input === 'number' ? {inputTokens: input} : {}),
    ...(typeof output === 'number' ? {outputTokens: output} : {}),
  };
}

async function listFolders(path: string): Promise<string[]> {
  try {
    return (await readdir(path, {withFileTypes: true})).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch (error) {
    if (isNotFound(error)) return [];
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new StratosError(
      'STRATOS_RUNS_UNREADABLE',
      `The runs folder ${path} cannot be read (${code}): ${code === 'ENOTDIR' ? 'it is not a folder' : 'check its permissions'}. Move it aside (Stratos recreates ${path} on the next run) or fix its permissions.`,
      {cause: error, details: {path}},
    );
  }
}
