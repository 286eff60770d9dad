// How the shared harness matrix talks to OpenCode's model API (OpenAI chat completions through
// `@ai-sdk/openai-compatible`): requests become matrix turns, matrix replies become chat replies. Used by the
// hosted OpenCode driver (agent-opencode.test.ts) and the one on a local Ollama provider
// (agent-ollama-opencode.test.ts).
import type {ChatReply, ChatTurn} from '../../servers/models/openai-chat.ts';
import type {MatrixReply, MatrixTurn} from './harness-matrix.ts';

const servers = ['slowcounter', 'counter', 'broken'];

/** OpenCode offers MCP tools as `<server>_<tool>`; the matrix names them `mcp__<server>__<tool>`. */
function toMatrixName(name: string): string {
  const server = servers.find((s) => name.startsWith(`${s}_`));
  return server === undefined ? name : `mcp__${server}__${name.slice(server.length + 1)}`;
}

export function toMatrixTurn(turn: ChatTurn): MatrixTurn {
  return {
    prompt: turn.userText,
    transcript: turn.transcript,
    system: turn.systemText,
    toolNames: turn.toolNames.map(toMatrixName),
    toolResults: turn.toolResults.map((r) => ({
      tool: toMatrixName(r.name),
      output: r.output,
      isError: false,
    })),
    // OpenCode's title request offers no tools.
    main: turn.toolNames.length > 0,
  };
}

export function toChatReply(reply: MatrixReply, turn: ChatTurn): ChatReply {
  if ('callMcp' in reply) {
    const name = `${reply.callMcp.server}_${reply.callMcp.tool}`;
    if (!turn.toolNames.includes(name))
      return {text: `TOOL NOT OFFERED: ${name}; offered: ${turn.toolNames.join(', ')}`};
    return {toolCall: {name, arguments: reply.callMcp.args}};
  }
  if ('structured' in reply) {
    // With a json_schema format OpenCode offers a tool for the result, which the model must call.
    const tool = turn.toolNames.find((name) => /structured/i.test(name));
    if (tool === undefined) return {text: `NO STRUCTURED OUTPUT TOOL; offered: ${turn.toolNames.join(', ')}`};
    if (turn.toolResults.some((r) => r.name === tool)) return {text: 'done'};
    return {toolCall: {name: tool, arguments: reply.structured}};
  }
  if ('structuredInvalid' in reply) return {text: 'The answer is 42, in prose.'};
  if ('slow' in reply) return {text: reply.slow, pauseMs: 1000};
  return reply;
}
