/**
 * Scripted answers: what `stratos test` puts in an execution context so that agents, decisions and MCP calls are
 * answered from a saved case instead of a model or a server. The execution context carries it; children inherit
 * their parent's. The implementation lives in `src/cases/`; the primitives only consult this interface, each at
 * one interception point:
 *
 * - agents (`src/agents/begin-turn.ts`): `agent()` after the prompt renders, before admission and the harness;
 * - MCP (`src/mcp/client/connect-server.ts`): `scriptsServer()` in the factory, `mcpCall()` for each call;
 * - decisions: the `decision()` primitive calls `decision()` with its configuration name and question names,
 *   before admission and any model, and validates the answers it gets like a model's;
 * - child workflows (`src/runtime/child-workflow.ts`): `child()` before the child is invoked; a scripted child is
 *   invoked with the scripted result in place of its run (its input and output contract still apply), and
 *   `rejectChild()` reports a scripted output its contract refuses.
 *
 * A lookup that finds no matching script throws (STRATOS_TEST_CALL_UNSCRIPTED) and the script remembers it, so a
 * workflow that catches the error still fails its case.
 */
import type {ErrorCode} from '../errors/index.ts';

/** An agent's scripted answer: `text` for a text agent, `value` for an agent with an output schema. */
export type ScriptedAgentAnswer = {text: string; value?: undefined} | {text?: undefined; value: unknown};

/** A scripted MCP tool result, in the shape a server returns it. */
export interface ScriptedToolResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A child workflow's scripted result: its output, or the error it fails with. */
export type ScriptedChildAnswer =
  | {output: Record<string, unknown>; error?: undefined}
  | {output?: undefined; error: {code: ErrorCode; message: string}};

export interface ScriptedAnswers {
  /**
   * The reply of one agent execute. `prompt` is the rendered user prompt.
   * @throws StratosError STRATOS_TEST_CALL_UNSCRIPTED when the case scripts no such reply.
   */
  agent(call: {workflow: string; agent: string; prompt: string}): ScriptedAgentAnswer;
  /** True when the case scripts this MCP server: it then connects to nothing and every call is looked up. */
  scriptsServer(call: {workflow: string; server: string}): boolean;
  /**
   * The result of one tool call of a scripted server.
   * @throws StratosError STRATOS_TEST_CALL_UNSCRIPTED when no script matches the tool and arguments.
   */
  mcpCall(call: {
    workflow: string;
    server: string;
    tool: string;
    arguments: Record<string, unknown>;
  }): ScriptedToolResult;
  /**
   * The answers of one decision, by question name (the hook the `decision()` primitive calls).
   * @throws StratosError STRATOS_TEST_CALL_UNSCRIPTED when the case scripts no answer for these questions.
   */
  decision(call: {workflow: string; decision: string; questions: readonly string[]}): Record<string, unknown>;
  /**
   * The result of one child workflow execute, or undefined when the case does not script that child (it then runs
   * for real). `workflow` is the calling workflow, `input` what it passes.
   * @throws StratosError STRATOS_TEST_CALL_UNSCRIPTED when the case scripts the child but no entry matches.
   */
  child(call: {workflow: string; child: string; input: unknown}): ScriptedChildAnswer | undefined;
  /** Reports that a scripted child output does not match the child's output schema (the case then fails). */
  rejectChild(call: {workflow: string; child: string; problem: string}): void;
}
