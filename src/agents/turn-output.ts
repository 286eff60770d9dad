/**
 * The output step of a turn: a harness's result (or a scripted answer) becomes the agent's answer, its text or the
 * structured value validated against the output schema. Text is never turned into an object: an agent with an
 * output schema needs the harness's native structured result.
 */
import {z} from 'zod';
import type {ScriptedAgentAnswer} from '../context/scripted-answers.ts';
import {StratosError} from '../errors/index.ts';
import type {HarnessTurnResult} from './harness.ts';

/** Who produced the result, for messages and details. */
export interface TurnOutputSubject {
  agent: string;
  harness: string;
}

/**
 * The answer of a turn: the text for an agent without an output schema, otherwise the structured result after
 * the schema's validation (its transforms applied).
 * @throws StratosError STRATOS_AGENT_OUTPUT_MISSING (no structured result; the text is not parsed into one),
 *   STRATOS_AGENT_OUTPUT_INVALID (the structured result does not match the schema).
 */
export async function readTurnOutput<Output>(
  result: HarnessTurnResult,
  outputSchema: z.ZodType<Output> | undefined,
  subject: TurnOutputSubject,
): Promise<Output> {
  if (outputSchema === undefined) return result.text as Output;
  if (result.structured === undefined) {
    throw new StratosError(
      'STRATOS_AGENT_OUTPUT_MISSING',
      `Agent '${subject.agent}' (${subject.harness}) ended without a structured result for its output schema; its text was not turned into one. Text: ${truncate(result.text)}`,
      {details: {agent: subject.agent, text: result.text}},
    );
  }
  const parsed = await outputSchema.safeParseAsync(result.structured.value);
  if (!parsed.success) {
    throw new StratosError(
      'STRATOS_AGENT_OUTPUT_INVALID',
      `Agent '${subject.agent}' (${subject.harness}) returned a structured result that does not match its output schema: ${z.prettifyError(parsed.error)}`,
      {details: {agent: subject.agent, value: result.structured.value, issues: parsed.error.issues}},
    );
  }
  return parsed.data;
}

/**
 * A scripted answer (`stratos test`) as a harness result. A structured value given to a text agent is its JSON
 * text, so a case recorded from a run (where the two look alike) replays either way.
 */
export function toScriptedResult(answer: ScriptedAgentAnswer, structured: boolean): HarnessTurnResult {
  if (answer.text !== undefined) return {text: answer.text};
  const text = typeof answer.value === 'string' ? answer.value : JSON.stringify(answer.value);
  return structured ? {text, structured: {value: answer.value}} : {text};
}

/** The reply as the `gen_ai.output.messages` attribute records it: the structured value as JSON when there is one. */
export function describeOutputMessages(result: HarnessTurnResult): string {
  return JSON.stringify([
    textMessage(
      'assistant',
      result.structured === undefined ? result.text : JSON.stringify(result.structured.value),
    ),
  ]);
}

/** The prompt as the `gen_ai.input.messages` attribute records it. */
export function describeInputMessages(text: string): string {
  return JSON.stringify([textMessage('user', text)]);
}

/** The output schema as harnesses take it: JSON Schema without the `$schema` dialect marker they reject. */
export function toOutputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const {$schema: _dialect, ...rest} = z.toJSONSchema(schema, {io: 'output'}) as Record<string, unknown>;
  return rest;
}

/** One message in the OpenTelemetry GenAI message-content shape (`gen_ai.input.messages`/`output.messages`). */
function textMessage(role: 'user' | 'assistant', content: string): {role: string; parts: unknown[]} {
  return {role, parts: [{type: 'text', content}]};
}

function truncate(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : JSON.stringify(text);
}
