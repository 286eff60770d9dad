// A small MCP server over stdio with no dependencies: newline-delimited JSON-RPC, one tool (count_words).
// Replace it with a real server when you have one; see the MCP specification for the messages.
import {createInterface} from 'node:readline';

const tools = [
  {
    name: 'count_words',
    description: 'Counts the words of a text.',
    inputSchema: {
      type: 'object',
      properties: {text: {type: 'string', description: 'The text to count'}},
      required: ['text'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {words: {type: 'integer', description: 'Number of words in the text'}},
      required: ['words'],
    },
  },
];

function answer(method, params) {
  if (method === 'initialize') {
    return {
      protocolVersion: params.protocolVersion,
      capabilities: {tools: {}},
      serverInfo: {name: 'words', version: '0.1.0'},
    };
  }
  if (method === 'ping') return {};
  if (method === 'tools/list') return {tools};
  if (method === 'tools/call' && params.name === 'count_words') {
    const words = String(params.arguments?.text ?? '')
      .split(/\s+/)
      .filter((word) => word !== '').length;
    return {content: [{type: 'text', text: JSON.stringify({words})}], structuredContent: {words}};
  }
  return undefined;
}

const send = (message) => process.stdout.write(`${JSON.stringify({jsonrpc: '2.0', ...message})}\n`);

createInterface({input: process.stdin}).on('line', (line) => {
  if (line.trim() === '') return;
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    send({id: null, error: {code: -32700, message: 'Parse error'}});
    return;
  }
  // Notifications (no id) need no answer.
  if (request.id === undefined) return;
  const result = answer(request.method, request.params ?? {});
  send(
    result === undefined
      ? {id: request.id, error: {code: -32601, message: `Method not found: ${request.method}`}}
      : {id: request.id, result},
  );
});
