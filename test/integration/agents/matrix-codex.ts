// How the shared harness matrix talks to Codex's model API (the OpenAI Responses API): requests become matrix
// turns, matrix replies become Responses replies. Used by the Codex driver on OpenAI (agent-codex.test.ts) and on a
// local Ollama provider (agent-ollama-codex.test.ts), whose server answers `/v1/responses` the same way.
import {mcpToolCall, type ResponsesReply, type ResponsesTurn} from '../../servers/models/openai-responses.ts';
import type {MatrixReply, MatrixTurn} from './harness-matrix.ts';

export function toMatrixTurn(turn: ResponsesTurn): MatrixTurn {
  return {
    prompt: turn.userText,
    transcript: turn.transcript,
    // Codex sends developer instructions as input messages.
    system: `${turn.instructions}\n${turn.transcript}`,
    toolNames: turn.toolNames,
    // Codex's output string carries no error flag; the model sees the text.
    toolResults: turn.toolResults.map((r) => ({
      tool: toolOfCall(turn, r.callId),
      output: r.output,
      isError: false,
    })),
    main: true,
  };
}

/** The `mcp__<server>__<tool>` name of the function call a result answers. */
function toolOfCall(turn: ResponsesTurn, callId: string): string {
  const input: {type?: string; call_id?: string; name?: string; namespace?: string}[] = turn.body.input ?? [];
  const call = input.find((item) => item.type === 'function_call' && item.call_id === callId);
  if (call === undefined) return '';
  return call.namespace === undefined ? String(call.name) : `${call.namespace}__${call.name}`;
}

export function toResponsesReply(reply: MatrixReply, turn: ResponsesTurn): ResponsesReply {
  if ('callMcp' in reply)
    return mcpToolCall(turn, reply.callMcp.server, reply.callMcp.tool, reply.callMcp.args);
  if ('structured' in reply) return {text: JSON.stringify(reply.structured)};
  // Codex's strict text.format makes the model answer JSON; a wrong type is what an invalid result looks like.
  if ('structuredInvalid' in reply) return {text: JSON.stringify({answer: 42})};
  if ('slow' in reply) return {text: reply.slow, pauseMs: 1000};
  return reply;
}
