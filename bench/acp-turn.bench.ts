// Stratos's overhead per turn of an ACP agent over the same agent driven directly through the ACP SDK's client,
// and the text Stratos adds to a prompt (target: none). The agent is the protocol-level test agent
// (test/servers/acp/test-agent.ts: it answers at once with `echo: <prompt>`, so a turn is the protocol round trip
// and each side's own work); with BENCH_ACP_AGENT=opencode, OpenCode's `opencode acp` against the scripted chat
// completions server instead. Rounds alternate direct and Stratos (BENCH_ROUNDS, default 3, after one warm-up round
// of each); each round is one session of BENCH_TURNS turns (default 10), and the medians are of turns 2 to the
// last of every round. The first turn (Stratos starts its agent inside it) is left out on both sides.
import {spawn} from 'node:child_process';
import {mkdirSync, mkdtempSync} from 'node:fs';
import {join} from 'node:path';
import {Readable, Writable} from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import {z} from 'zod';
import {createAgent} from '../src/agents/index.ts';
import {workflow} from '../src/contract/index.ts';
import {invokeWorkflow} from '../src/runtime/invoke-workflow.ts';
import {startChatServer} from '../test/servers/models/openai-chat.ts';

const turns = Number(process.env.BENCH_TURNS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const useOpenCode = process.env.BENCH_ACP_AGENT === 'opencode';
const base = mkdtempSync('/var/tmp/stratos-bench-acp-');
const cwd = join(base, 'work');
mkdirSync(cwd);
const chat = useOpenCode ? await startChatServer(() => ({text: 'ok'})) : undefined;
const opencode = new URL('../node_modules/.bin/opencode', import.meta.url).pathname;
const agentEnv: Record<string, string> = useOpenCode
  ? {
      HOME: join(base, 'home'),
      XDG_CONFIG_HOME: join(base, 'xdg-config'),
      XDG_DATA_HOME: join(base, 'xdg-data'),
      XDG_CACHE_HOME: join(base, 'xdg-cache'),
      XDG_STATE_HOME: join(base, 'xdg-state'),
      OPENCODE_CONFIG_CONTENT: JSON.stringify({
        autoupdate: false,
        share: 'disabled',
        plugin: [],
        model: 'scripted/gpt-test',
        small_model: 'scripted/gpt-test',
        provider: {
          scripted: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Scripted',
            options: {baseURL: `${chat!.url}/v1`, apiKey: 'sk-bench'},
            models: {'gpt-test': {name: 'gpt-test', tool_call: true}},
          },
        },
      }),
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_PROJECT_CONFIG: '1',
    }
  : {};
const command = useOpenCode ? opencode : process.execPath;
const args = useOpenCode ? ['acp'] : [new URL('../test/servers/acp/test-agent.ts', import.meta.url).pathname];

/** What each turn's prompt became on the other side: the reply (test agent) or the model's user text (OpenCode). */
const received: {direct: string[]; stratos: string[]} = {direct: [], stratos: []};

async function direct(): Promise<number[]> {
  const child = spawn(command, args, {
    cwd,
    env: {...process.env, ...agentEnv},
    stdio: ['pipe', 'pipe', 'ignore'],
    detached: true,
  });
  let text = '';
  const connection = acp
    .client({name: 'bench'})
    .onNotification('session/update', ({params}) => {
      const update = params.update;
      if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text')
        text += update.content.text;
    })
    .onRequest('session/request_permission', () => ({outcome: {outcome: 'cancelled'}}))
    .connect(
      acp.ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
      ),
    );
  const times: number[] = [];
  try {
    await connection.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    const {sessionId} = await connection.agent.request('session/new', {cwd, mcpServers: []});
    for (let i = 0; i < turns; i++) {
      text = '';
      const start = performance.now();
      await connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{type: 'text', text: `turn ${i}`}],
      });
      times.push(performance.now() - start);
      received.direct.push(text);
    }
  } finally {
    connection.close();
    process.kill(-child.pid!, 'SIGKILL');
  }
  return times;
}

async function viaStratos(): Promise<number[]> {
  const times: number[] = [];
  const definition = workflow({
    input: z.strictObject({}),
    output: z.object({}),
    async run() {
      const agent = createAgent({harness: 'acp', command, args, env: agentEnv, allowedMcps: []});
      for (let i = 0; i < turns; i++) {
        const start = performance.now();
        const reply = await agent.execute(`turn ${i}`);
        times.push(performance.now() - start);
        received.stratos.push(String(reply));
      }
      return {};
    },
  });
  const manifest = {name: 'bench', shortDescription: 'b', longDescription: 'b', version: '1.0.0'};
  const result = await invokeWorkflow({
    workflow: {name: 'bench', directory: cwd, manifest: {...manifest, entrypoint: 'workflow.ts'}},
    definition,
    input: {},
    invocationDirectory: cwd,
  });
  if (!result.ok) throw result.error;
  return times;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
await direct();
await viaStratos();
received.direct.length = 0;
received.stratos.length = 0;
const directTimes: number[] = [];
const stratosTimes: number[] = [];
for (let round = 0; round < rounds; round++) {
  directTimes.push(...(await direct()).slice(1));
  stratosTimes.push(...(await viaStratos()).slice(1));
}
const d = median(directTimes);
const s = median(stratosTimes);
// Test agent: the reply echoes the prompt as the agent received it. OpenCode: the model's last user message.
const userTexts = (from: number) =>
  (chat?.turns() ?? []).slice(from).map((turn) => (turn as {userText: string}).userText);
const added = useOpenCode
  ? 'see the scripted server: identical user texts'
  : received.stratos.reduce((sum, reply, i) => sum + reply.length - (received.direct[i]?.length ?? 0), 0);
console.log(
  JSON.stringify(
    {
      agent: useOpenCode ? 'opencode acp' : 'test agent',
      turns,
      rounds,
      directMedianMs: Number(d.toFixed(1)),
      stratosMedianMs: Number(s.toFixed(1)),
      addedPerTurnMs: Number((s - d).toFixed(1)),
      ratio: Number((s / d).toFixed(2)),
      promptCharsAdded: added,
      ...(useOpenCode ? {userTexts: [...new Set(userTexts(0))].slice(0, 4)} : {}),
    },
    null,
    1,
  ),
);
await chat?.close();
process.exit(0);
