// A protocol-level ACP agent for the tests, built on the SDK's agent side and run as its own process
// (`node test-agent.ts`). It answers each prompt by the words in it, never by a count:
// - `use the tool`: reports a tool call, asks permission (allow once / reject once) and reports the outcome;
// - `crash`: writes to stderr and exits with code 3 mid-turn;
// - `make a plan`: reports a plan of two entries, then the same plan with the first completed, and replies `planned`;
// - `wait for cancel`: keeps the turn open until `session/cancel`, then stops with `cancelled`;
// - `reply json <text>`: replies with <text> as it is;
// - `write file <path> <text>`: writes <text> to <path> (a credential file that changes between turns);
// - `describe`: replies with a JSON report of its session (cwd, MCP servers, a hash of ACP_TEST_SECRET, model,
//   first prompt, pid);
// - anything else: `echo: <prompt>`.
// Variables: ACP_TEST_NO_HTTP_MCP=1 advertises no HTTP MCP support; ACP_TEST_LOAD=1 advertises loadSession; ACP_TEST_MODELS=1 offers a model choice
// (`small`, `large`); ACP_TEST_PID_FILE: where it writes its pid.
import {createHash} from 'node:crypto';
import {writeFileSync} from 'node:fs';
import {Readable, Writable} from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

interface SessionState {
  cwd: string;
  mcpServers: unknown[];
  model: string;
  prompts: string[];
  /** `session/load` calls (new MCP servers for the same session). */
  loads: number;
  cancelled: (() => void) | undefined;
}

const sessions = new Map<string, SessionState>();
if (process.env.ACP_TEST_PID_FILE) writeFileSync(process.env.ACP_TEST_PID_FILE, String(process.pid));

const modelOption = (value: string) => ({
  id: 'model',
  name: 'Model',
  category: 'model',
  type: 'select' as const,
  currentValue: value,
  options: [
    {value: 'small', name: 'Small'},
    {value: 'large', name: 'Large'},
  ],
});

const app = acp
  .agent({name: 'stratos-test-agent'})
  .onRequest('initialize', ({params}) => ({
    protocolVersion: params.protocolVersion,
    agentCapabilities: {
      loadSession: process.env.ACP_TEST_LOAD === '1',
      mcpCapabilities: {http: process.env.ACP_TEST_NO_HTTP_MCP !== '1', sse: false},
    },
    agentInfo: {name: 'stratos-test-agent', version: '1.0.0'},
  }))
  .onRequest('session/new', ({params}) => {
    const sessionId = `session-${sessions.size + 1}`;
    sessions.set(sessionId, {
      cwd: params.cwd,
      mcpServers: params.mcpServers,
      model: 'small',
      prompts: [],
      loads: 0,
      cancelled: undefined,
    });
    return {
      sessionId,
      ...(process.env.ACP_TEST_MODELS === '1' ? {configOptions: [modelOption('small')]} : {}),
    };
  })
  .onRequest('session/load', ({params}) => {
    const session = sessions.get(params.sessionId)!;
    session.mcpServers = params.mcpServers;
    session.loads += 1;
    return {};
  })
  .onRequest('session/set_config_option', ({params}) => {
    const session = sessions.get(params.sessionId)!;
    session.model = String((params as {value: unknown}).value);
    return {configOptions: [modelOption(session.model)]};
  })
  .onNotification('session/cancel', ({params}) => {
    sessions.get(params.sessionId)?.cancelled?.();
  })
  .onRequest('session/prompt', async ({params, client}) => {
    const session = sessions.get(params.sessionId)!;
    const prompt = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
    session.prompts.push(prompt);
    const say = (text: string) =>
      client.notify('session/update', {
        sessionId: params.sessionId,
        update: {sessionUpdate: 'agent_message_chunk', content: {type: 'text', text}},
      });
    const update = (update: acp.SessionUpdate) =>
      client.notify('session/update', {sessionId: params.sessionId, update});
    if (prompt.includes('crash')) {
      process.stderr.write('test agent: crashing on purpose\n');
      process.exit(3);
    }
    if (prompt.includes('make a plan')) {
      const entry = (
        content: string,
        status: acp.PlanEntry['status'],
        priority: acp.PlanEntry['priority'],
      ) => ({
        content,
        status,
        priority,
      });
      await update({
        sessionUpdate: 'plan',
        entries: [
          entry('Read the code', 'in_progress', 'high'),
          entry('Write the test', 'pending', 'medium'),
        ],
      });
      await update({
        sessionUpdate: 'plan',
        entries: [
          entry('Read the code', 'completed', 'high'),
          entry('Write the test', 'in_progress', 'medium'),
        ],
      });
      await say('planned');
      return {stopReason: 'end_turn'};
    }
    if (prompt.includes('wait for cancel')) {
      await update({
        sessionUpdate: 'tool_call',
        toolCallId: 'long-call',
        title: 'Long task',
        status: 'in_progress',
      });
      await new Promise<void>((resolve) => {
        session.cancelled = resolve;
      });
      return {stopReason: 'cancelled'};
    }
    if (prompt.includes('use the tool')) {
      const toolCallId = `call-${session.prompts.length}`;
      await update({
        sessionUpdate: 'tool_call',
        toolCallId,
        title: 'Write note.txt',
        name: 'write_note',
        kind: 'edit',
        status: 'pending',
        rawInput: {path: 'note.txt', text: 'hello'},
      });
      const answer = await client.request('session/request_permission', {
        sessionId: params.sessionId,
        toolCall: {toolCallId, title: 'Write note.txt', name: 'write_note', rawInput: {path: 'note.txt'}},
        options: [
          {optionId: 'yes', name: 'Allow', kind: 'allow_once'},
          {optionId: 'no', name: 'Reject', kind: 'reject_once'},
        ],
      });
      if (answer.outcome.outcome === 'cancelled') return {stopReason: 'cancelled'};
      if (answer.outcome.optionId === 'yes') {
        await update({
          sessionUpdate: 'tool_call_update',
          toolCallId,
          status: 'completed',
          rawOutput: {written: 'note.txt'},
        });
        await say('the tool ran');
      } else {
        const feedback = (answer._meta as {feedback?: string} | undefined)?.feedback ?? '';
        await update({sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', rawOutput: 'denied'});
        await say(`the tool was denied: ${feedback}`);
      }
      return {stopReason: 'end_turn'};
    }
    const write = /^write file (\S+) (.*)$/.exec(prompt);
    if (write !== null) {
      writeFileSync(write[1]!, write[2]!);
      await say('written');
      return {stopReason: 'end_turn'};
    }
    const json = /reply json (.*)$/s.exec(prompt.split('\n\nReply with only one JSON value')[0]!);
    if (json !== null) await say(json[1]!);
    else if (prompt.includes('describe'))
      await say(
        JSON.stringify({
          cwd: session.cwd,
          mcpServers: session.mcpServers,
          model: session.model,
          loads: session.loads,
          firstPrompt: session.prompts[0],
          // A hash: the value itself is a resolved reference, which Stratos redacts from every output.
          secretHash: createHash('sha256')
            .update(process.env.ACP_TEST_SECRET ?? '')
            .digest('hex'),
          pid: process.pid,
        }),
      );
    else await say(`echo: ${prompt}`);
    return {
      stopReason: 'end_turn',
      usage: {inputTokens: 11, outputTokens: 7, totalTokens: 18},
    } as acp.PromptResponse;
  });

const connection = app.connect(
  acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>,
  ),
);
await connection.closed;
