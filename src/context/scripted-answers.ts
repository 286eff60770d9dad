/**
 * Scripted answers: the shapes of what a `stratos test` case answers, and the interface of its scripts
 * (`src/cases/case-script.ts`). The primitives never consult the scripts themselves: the case is the run's source
 * of recorded steps (`src/cases/case-source.ts`, see `recorded-steps.ts`), which the step seam asks when a
 * primitive asks its opened step for an answer (`OpenedStep.answer`), exactly as it asks a resumed run's journal:
 *
 * - agents (`src/agents/agent-session.ts`): after the prompt renders, before admission and the harness; hooks and
 *   output validation still run;
 * - MCP (`src/mcp/client/connect-server.ts`): a server the case scripts (`StepSeam.answersServer`) connects to
 *   nothing, and each of its calls is answered (`scripted-connection.ts`);
 * - decisions: before admission and any model; the answers are validated like a model's;
 * - child workflows (`src/runtime/child-workflow.ts`): a scripted child is invoked with the scripted result in
 *   place of its run (its input and output contract still apply); the answer's `reject` reports a scripted output
 *   its contract refuses.
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
