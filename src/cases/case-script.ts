/**
 * The scripted answers of one case, asked through `case-source.ts` (the run's source of recorded steps): each
 * agent execute, decision, call of a scripted MCP server and execute of a scripted child workflow takes the first
 * unused script that matches it. A call no script matches throws and is remembered, as is a scripted child output
 * the child's contract refuses; scripts never taken are reported after the run. All fail the case, naming the call.
 */
import {isDeepStrictEqual} from 'node:util';
import type {
  ScriptedAgentAnswer,
  ScriptedAnswers,
  ScriptedChildAnswer,
  ScriptedToolResult,
} from '../context/scripted-answers.ts';
import {type ErrorCode, StratosError} from '../errors/index.ts';
import type {AgentScript, ChildScript, DecisionScript, TestCase, ToolScript} from './test-case.ts';

/** A problem of a case that is not about its output: an unscripted call, an invalid or an unused script. */
export interface CaseProblem {
  code: 'STRATOS_TEST_CALL_UNSCRIPTED' | 'STRATOS_TEST_SCRIPT_INVALID' | 'STRATOS_TEST_SCRIPT_UNUSED';
  message: string;
}

export class CaseScript implements ScriptedAnswers {
  readonly #agents: {script: AgentScript; used: boolean}[];
  readonly #tools: Map<string, {script: ToolScript; used: boolean}[]>;
  readonly #decisions: {script: DecisionScript; used: boolean}[];
  readonly #children: {script: ChildScript; used: boolean}[];
  readonly #unscripted: CaseProblem[] = [];

  constructor(testCase: TestCase) {
    this.#agents = testCase.agents.map((script) => ({script, used: false}));
    this.#tools = new Map(
      Object.entries(testCase.mcp).map(([server, scripts]) => [
        server,
        scripts.map((script) => ({script, used: false})),
      ]),
    );
    this.#decisions = testCase.decisions.map((script) => ({script, used: false}));
    this.#children = testCase.children.map((script) => ({script, used: false}));
  }

  agent(call: {workflow: string; agent: string; prompt: string}): ScriptedAgentAnswer {
    const entry = this.#agents.find(
      ({script, used}) =>
        !used &&
        script.agent === call.agent &&
        (script.workflow === undefined || script.workflow === call.workflow) &&
        (script.prompt === undefined || call.prompt.includes(script.prompt)),
    );
    if (entry === undefined) {
      throw this.#fail(
        `Agent '${call.agent}' of workflow '${call.workflow}' was asked a prompt the case scripts no reply for: ${quote(call.prompt)}. Add an entry to agents: (agent: ${call.agent}, prompt: a part of this prompt, reply or output).`,
        {agent: call.agent, workflow: call.workflow, prompt: call.prompt},
      );
    }
    entry.used = true;
    return entry.script.reply === undefined ? {value: entry.script.output} : {text: entry.script.reply};
  }

  scriptsServer(call: {workflow: string; server: string}): boolean {
    return this.#tools.has(call.server);
  }

  mcpCall(call: {
    workflow: string;
    server: string;
    tool: string;
    arguments: Record<string, unknown>;
  }): ScriptedToolResult {
    const entry = this.#tools
      .get(call.server)
      ?.find(
        ({script, used}) =>
          !used &&
          script.tool === call.tool &&
          (script.workflow === undefined || script.workflow === call.workflow) &&
          (script.arguments === undefined ||
            isDeepStrictEqual(normalize(script.arguments), normalize(call.arguments))),
      );
    if (entry === undefined) {
      throw this.#fail(
        `MCP tool '${call.tool}' of server '${call.server}' (workflow '${call.workflow}') was called with arguments ${JSON.stringify(call.arguments)}, which the case does not script. Add an entry under mcp.${call.server} with tool: ${call.tool} and these arguments.`,
        {server: call.server, tool: call.tool, arguments: call.arguments, workflow: call.workflow},
      );
    }
    entry.used = true;
    return entry.script.result as ScriptedToolResult;
  }

  decision(call: {
    workflow: string;
    decision: string;
    questions: readonly string[];
  }): Record<string, unknown> {
    const entry = this.#decisions.find(
      ({script, used}) =>
        !used &&
        script.decision === call.decision &&
        (script.workflow === undefined || script.workflow === call.workflow) &&
        sameNames(Object.keys(script.answers), call.questions),
    );
    if (entry === undefined) {
      throw this.#fail(
        `Decision '${call.decision}' of workflow '${call.workflow}' asked ${call.questions.map((q) => `'${q}'`).join(', ')}, which the case does not answer. Add an entry to decisions: (decision: ${call.decision}, answers naming exactly these questions).`,
        {decision: call.decision, questions: [...call.questions], workflow: call.workflow},
      );
    }
    entry.used = true;
    return entry.script.answers;
  }

  child(call: {workflow: string; child: string; input: unknown}): ScriptedChildAnswer | undefined {
    const forCall = this.#children.filter(
      ({script}) =>
        script.child === call.child && (script.workflow === undefined || script.workflow === call.workflow),
    );
    // A child the case does not script runs for real, like an MCP server the case does not name.
    if (forCall.length === 0) return undefined;
    const entry = forCall.find(
      ({script, used}) =>
        !used &&
        (script.input === undefined || isDeepStrictEqual(normalize(script.input), normalize(call.input))),
    );
    if (entry === undefined) {
      throw this.#fail(
        `Child workflow '${call.child}' was called by '${call.workflow}' with input ${JSON.stringify(call.input)}, which the case does not script (it scripts '${call.child}', so every call is looked up). Add an entry to children: (child: ${call.child}, input: this input, output or error).`,
        {child: call.child, workflow: call.workflow, input: call.input},
      );
    }
    entry.used = true;
    const {script} = entry;
    if (script.output !== undefined) return {output: script.output};
    const code = script.error as ErrorCode;
    return {
      error: {
        code,
        message:
          script.message ??
          `Child workflow '${call.child}' failed with ${code}, as the case scripts (children: of the test case).`,
      },
    };
  }

  rejectChild(call: {workflow: string; child: string; problem: string}): void {
    this.#unscripted.push({
      code: 'STRATOS_TEST_SCRIPT_INVALID',
      message: `The case scripts an output for child workflow '${call.child}' (called by '${call.workflow}') that does not match the child's output schema (${call.problem}). Fix the output of that entry under children:.`,
    });
  }

  /** Calls that found no script, and scripted values their contract refused, in the order they happened. */
  unscripted(): CaseProblem[] {
    return [...this.#unscripted];
  }

  /** Scripts the run never took. */
  unused(): CaseProblem[] {
    const problems: CaseProblem[] = [];
    const unused = (message: string) =>
      problems.push({
        code: 'STRATOS_TEST_SCRIPT_UNUSED',
        message: `${message}, but the workflow never made that call.`,
      });
    for (const {script, used} of this.#agents) {
      if (!used)
        unused(
          `The case scripts a reply for agent '${script.agent}'${script.prompt === undefined ? '' : ` to a prompt containing ${quote(script.prompt)}`}`,
        );
    }
    for (const [server, scripts] of this.#tools) {
      for (const {script, used} of scripts) {
        if (!used)
          unused(
            `The case scripts MCP tool '${script.tool}' of server '${server}'${script.arguments === undefined ? '' : ` with arguments ${JSON.stringify(script.arguments)}`}`,
          );
      }
    }
    for (const {script, used} of this.#decisions) {
      if (!used)
        unused(
          `The case scripts answers for decision '${script.decision}' (questions ${Object.keys(script.answers).join(', ')})`,
        );
    }
    for (const {script, used} of this.#children) {
      if (!used)
        unused(
          `The case scripts a result for child workflow '${script.child}'${script.input === undefined ? '' : ` with input ${JSON.stringify(script.input)}`}`,
        );
    }
    return problems;
  }

  #fail(message: string, details: Record<string, unknown>): StratosError {
    this.#unscripted.push({code: 'STRATOS_TEST_CALL_UNSCRIPTED', message});
    return new StratosError('STRATOS_TEST_CALL_UNSCRIPTED', message, {details});
  }
}

/** True when both lists hold the same names, in any order. */
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name) => b.includes(name));
}

/** Arguments compared as JSON: what a server would receive. */
function normalize(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? {}));
}

function quote(text: string): string {
  const flat = JSON.stringify(text);
  return flat.length > 300 ? `${flat.slice(0, 297)}..."` : flat;
}
