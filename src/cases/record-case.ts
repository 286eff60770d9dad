/**
 * A recorded run as a test case (`stratos runs record <run> --case <name>`): the run's input and output from
 * run.json, and from events.jsonl each agent reply (`gen_ai.output.messages` of an agent span, matched by the
 * prompt's beginning) and each direct MCP result (`gen_ai.tool.call.result` of a `tools/call` span, matched by tool
 * and arguments) and each decision's answers (`stratos.decision.answers` of a decision span, in the written shape of a
 * case). Child workflows are not recorded as scripts: they run for real when the case replays, and their own
 * agent, decision and MCP calls are recorded with `workflow:`. What the artifacts hold redacted, truncated or not at all is kept visible and listed as needing a
 * value: a recorded case never guesses.
 */
import type {RunTreeNode} from '../telemetry/artifacts/run-store.ts';
import type {RunRecord, ValueSummary} from '../telemetry/index.ts';
import {casePathsOf, replaceMachinePaths, sliceKeepingPlaceholders} from './case-paths.ts';

/** How much of a recorded prompt the case matches on: its beginning identifies the call and survives truncation. */
const PROMPT_MATCH_LENGTH = 200;
const REDACTED = '[REDACTED]';
export const NEEDS_VALUE = '[NEEDS VALUE]';

export interface RecordedCase {
  testCase: Record<string, unknown>;
  /** One sentence per value the author must fill in before the case replays as the run did. */
  needsValue: string[];
}

/**
 * The case of a recorded run. The workflow folder, the invocation directory and `home` (default: the user's home
 * directory) are written as `{workflow}`, `{cwd}` and `{home}` wherever they appear (case-paths.ts): a recorded
 * case holds no absolute path of the machine it was recorded on.
 */
export function recordTestCase(record: RunRecord, tree: readonly RunTreeNode[], home?: string): RecordedCase {
  const paths = casePathsOf(record.workflow.directory, record.invocationDirectory, home);
  const needsValue: string[] = [];
  const root = record.workflow.name;
  const input = summaryValue(record.input, 'input', needsValue);
  const testCase: Record<string, unknown> = {
    description: `Recorded from run ${record.runId} of '${root}' (${record.status}).`,
    input: input ?? {},
  };
  if (record.status === 'succeeded')
    testCase.output = summaryValue(record.output, 'output', needsValue) ?? {};
  else testCase.error = record.error?.code ?? 'STRATOS_RUN_FAILED';
  const agents: Record<string, unknown>[] = [];
  const mcp: Record<string, Record<string, unknown>[]> = {};
  const decisions: Record<string, unknown>[] = [];
  const visit = (node: RunTreeNode): void => {
    const attributes = node.attributes ?? {};
    const workflow = node.workflow === root ? {} : {workflow: node.workflow};
    if (node.kind === 'agent.execute' && attributes['stratos.agent.name'] !== undefined) {
      const agent = String(attributes['stratos.agent.name']);
      const at = `agents[${agents.length}] (agent '${agent}')`;
      const prompt = messageText(attributes['gen_ai.input.messages']);
      const reply = messageText(attributes['gen_ai.output.messages']);
      const entry: Record<string, unknown> = {agent, ...workflow};
      if (prompt !== undefined) {
        // Paths first, so the beginning kept never ends in the middle of one.
        const portable = replaceMachinePaths(prompt, paths) as string;
        entry.prompt = sliceKeepingPlaceholders(portable, PROMPT_MATCH_LENGTH);
      }
      if (reply === undefined) {
        entry.reply = NEEDS_VALUE;
        needsValue.push(
          `${at}: the run recorded no readable reply (the agent failed, or it was truncated); write the reply.`,
        );
      } else {
        const structured = parseJson(reply);
        if (typeof structured === 'object' && structured !== null) entry.output = structured;
        else entry.reply = reply;
        noteRedacted(structured ?? reply, at, needsValue);
      }
      agents.push(entry);
    }
    if (node.kind === 'mcp.connect' && typeof attributes['mcp.server'] === 'string') {
      mcp[attributes['mcp.server']] ??= [];
    }
    if (node.kind === 'mcp.call' && typeof attributes['mcp.server'] === 'string') {
      const server = attributes['mcp.server'];
      const tool = String(attributes['mcp.tool'] ?? node.name.replace(/^tools\/call /, ''));
      mcp[server] ??= [];
      const calls = mcp[server];
      const at = `mcp.${server}[${calls.length}] (tool '${tool}')`;
      const args = parseJson(String(attributes['gen_ai.tool.call.arguments'] ?? ''));
      const result = parseJson(String(attributes['gen_ai.tool.call.result'] ?? ''));
      const entry: Record<string, unknown> = {tool, ...workflow};
      if (typeof args === 'object' && args !== null) {
        entry.arguments = args;
        noteRedacted(args, `${at} arguments`, needsValue);
      } else
        needsValue.push(`${at}: its arguments were not recorded readably; the script matches any arguments.`);
      if (typeof result === 'object' && result !== null) {
        entry.result = result;
        noteRedacted(result, `${at} result`, needsValue);
      } else {
        entry.result = {content: [{type: 'text', text: NEEDS_VALUE}]};
        needsValue.push(
          `${at}: the run recorded no result (the call failed${node.error === undefined ? '' : ` with ${node.error.code ?? node.error.message}`}); write the result (isError: true for a tool error).`,
        );
      }
      calls.push(entry);
    }
    if (node.kind === 'decision' && typeof attributes['stratos.decision.name'] === 'string') {
      decisions.push(recordDecision(attributes, workflow, decisions.length, needsValue));
    }
    for (const child of node.children) visit(child);
  };
  for (const node of tree) visit(node);
  if (agents.length > 0) testCase.agents = agents;
  if (Object.keys(mcp).length > 0) testCase.mcp = mcp;
  if (decisions.length > 0) testCase.decisions = decisions;
  return {testCase: replaceMachinePaths(testCase, paths) as Record<string, unknown>, needsValue};
}

/** A decision span as a case entry: each answer without its `type` (the question gives it). */
function recordDecision(
  attributes: Record<string, unknown>,
  workflow: {workflow?: string},
  index: number,
  needsValue: string[],
): Record<string, unknown> {
  const decision = String(attributes['stratos.decision.name']);
  const at = `decisions[${index}] (decision '${decision}')`;
  const recorded = parseJson(String(attributes['stratos.decision.answers'] ?? ''));
  const answers: Record<string, unknown> = {};
  if (typeof recorded === 'object' && recorded !== null && !Array.isArray(recorded)) {
    for (const [name, answer] of Object.entries(recorded)) {
      const {type: _type, ...written} = (answer ?? {}) as Record<string, unknown>;
      answers[name] = written;
    }
    noteRedacted(answers, `${at} answers`, needsValue);
  } else {
    const names = attributes['stratos.decision.question_names'];
    for (const name of Array.isArray(names) ? names : []) answers[String(name)] = NEEDS_VALUE;
    needsValue.push(
      `${at}: the run recorded no answers (the decision failed, or they were truncated); write each answer.`,
    );
  }
  return {decision, ...workflow, answers};
}

function summaryValue(summary: ValueSummary | undefined, field: string, needsValue: string[]): unknown {
  if (summary === undefined || summary.type === 'undefined') return undefined;
  const value = summary.truncated ? undefined : parseJson(summary.preview);
  if (value === undefined) {
    needsValue.push(
      `${field}: run.json keeps only the first ${summary.preview.length} characters; write the whole ${field}.`,
    );
    return NEEDS_VALUE;
  }
  noteRedacted(value, field, needsValue);
  return value;
}

/** The text of the first message's text parts, from a `gen_ai.*.messages` attribute. */
function messageText(attribute: unknown): string | undefined {
  const messages = typeof attribute === 'string' ? parseJson(attribute) : undefined;
  if (!Array.isArray(messages) || messages.length === 0) return undefined;
  const parts = (messages[0] as {parts?: {type?: string; content?: unknown}[]}).parts ?? [];
  const texts = parts.filter((part) => part.type === 'text' && typeof part.content === 'string');
  return texts.length === 0 ? undefined : texts.map((part) => part.content as string).join('');
}

function noteRedacted(value: unknown, at: string, needsValue: string[]): void {
  const paths: string[] = [];
  const walk = (item: unknown, path: string): void => {
    if (typeof item === 'string' && item.includes(REDACTED)) paths.push(path);
    else if (Array.isArray(item)) {
      for (const [index, entry] of item.entries()) walk(entry, `${path}[${index}]`);
    } else if (typeof item === 'object' && item !== null)
      for (const [key, entry] of Object.entries(item)) walk(entry, `${path}.${key}`);
  };
  walk(value, at);
  for (const path of paths) needsValue.push(`${path}: the run recorded it as ${REDACTED}; write the value.`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
