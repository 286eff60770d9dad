// Stratos's overhead per agent turn over each harness SDK used directly, against the same scripted model server,
// and the request size Stratos adds beyond what the harness sends by itself (a plain agent: no system prompt, no
// MCP). Targets: under 50 ms per turn (OpenCode: under 20 ms), no more than 100 tokens per request (none for a
// plain OpenCode agent). Tokens are estimated as characters / 4 of the request body, since no tokenizer runs
// offline.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import {join} from 'node:path';
import {query, type SDKUserMessage} from '@anthropic-ai/claude-agent-sdk';
import {Codex} from '@openai/codex-sdk';
import {createOpencodeClient, createOpencodeServer} from '@opencode-ai/sdk';
import {createAgent} from '../src/agents/index.ts';
import {workflow} from '../src/contract/index.ts';
import {invokeWorkflow} from '../src/runtime/invoke-workflow.ts';
import {startAnthropicServer} from '../test/servers/models/anthropic.ts';
import {startChatServer} from '../test/servers/models/openai-chat.ts';
import {startResponsesServer} from '../test/servers/models/openai-responses.ts';

const turns = Number(process.env.BENCH_TURNS ?? 8);
const dump = process.env.BENCH_DUMP !== undefined;
/** BENCH_HARNESS=<id> measures one harness only. */
const onlyHarness = process.env.BENCH_HARNESS;
const openCodeDefaults = process.env.BENCH_OPENCODE_DEFAULTS !== undefined;
const base = mkdtempSync('/var/tmp/stratos-bench-');
for (const dir of ['home', 'claude', 'codex', 'tmp', 'work', 'xdg']) mkdirSync(join(base, dir));
const anthropic = await startAnthropicServer(() => ({text: 'ok'}));
const openai = await startResponsesServer(() => ({text: 'ok'}));
const chat = await startChatServer(() => ({text: 'ok'}));
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  HOME: join(base, 'home'),
  TMPDIR: join(base, 'tmp'),
  CLAUDE_CONFIG_DIR: join(base, 'claude'),
  CLAUDE_CODE_TMPDIR: join(base, 'tmp'),
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  CODEX_HOME: join(base, 'codex'),
  ANTHROPIC_BASE_URL: anthropic.url,
  ANTHROPIC_API_KEY: 'sk-bench',
  OPENAI_BASE_URL: `${openai.url}/v1`,
  OPENAI_API_KEY: 'sk-bench',
};
for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
Object.assign(process.env, env);
const cwd = join(base, 'work');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function directClaude(): Promise<number[]> {
  const queue: ((m: SDKUserMessage) => void)[] = [];
  const pending: SDKUserMessage[] = [];
  const input = {
    async *[Symbol.asyncIterator]() {
      for (;;) yield pending.shift() ?? (await new Promise<SDKUserMessage>((r) => queue.push(r)));
    },
  };
  const send = (text: string) => {
    const message = {
      type: 'user',
      message: {role: 'user', content: text},
      parent_tool_use_id: null,
      session_id: '',
    } as SDKUserMessage;
    const waiter = queue.shift();
    if (waiter) waiter(message);
    else pending.push(message);
  };
  const q = query({
    prompt: input,
    options: {cwd, env, settingSources: [], strictMcpConfig: true, mcpServers: {}},
  });
  const iterator = q[Symbol.asyncIterator]();
  const times: number[] = [];
  for (let i = 0; i < turns; i++) {
    const start = performance.now();
    send(`turn ${i}`);
    for (;;) {
      const {value} = await iterator.next();
      if (value?.type === 'result') break;
    }
    times.push(performance.now() - start);
  }
  q.close();
  return times;
}

async function directCodex(): Promise<number[]> {
  const codex = new Codex({
    env,
    config: {
      analytics: {enabled: false},
      features: {plugins: false},
      model_provider: 'bench',
      model_providers: {
        bench: {
          name: 'bench',
          base_url: env.OPENAI_BASE_URL!,
          env_key: 'OPENAI_API_KEY',
          wire_api: 'responses',
        },
      },
    },
  });
  const thread = codex.startThread({
    workingDirectory: cwd,
    skipGitRepoCheck: true,
    approvalPolicy: 'never',
    sandboxMode: 'workspace-write',
  });
  const times: number[] = [];
  for (let i = 0; i < turns; i++) {
    const start = performance.now();
    await thread.run(`turn ${i}`);
    times.push(performance.now() - start);
  }
  return times;
}

/**
 * OpenCode through its SDK with the configuration Stratos gives a plain agent: the chat completions provider, the
 * model as main and small model, auto-update, sharing and plugins off and the interactive `question` tool removed
 * (BENCH_OPENCODE_DEFAULTS=1 keeps OpenCode's default tools and switches instead, to see what Stratos changes).
 */
async function directOpenCode(): Promise<number[]> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const {port} = probe.address() as {port: number};
      probe.close(() => resolve(port));
    });
  });
  const server = await createOpencodeServer({
    port,
    timeout: 120_000,
    config: {
      ...(openCodeDefaults
        ? {}
        : {autoupdate: false, share: 'disabled', plugin: [], tools: {question: false}}),
      model: 'openai-base-url/gpt-test',
      small_model: 'openai-base-url/gpt-test',
      provider: {
        'openai-base-url': {
          npm: '@ai-sdk/openai-compatible',
          name: 'OpenAI (OPENAI_BASE_URL)',
          options: {baseURL: `${chat.url}/v1`, apiKey: '{env:OPENAI_API_KEY}'},
          models: {'gpt-test': {name: 'gpt-test', tool_call: true}},
        },
      },
    } as never,
  });
  const client = createOpencodeClient({baseUrl: server.url, directory: cwd});
  const session = (await client.session.create({body: {}})).data!;
  const times: number[] = [];
  try {
    for (let i = 0; i < turns; i++) {
      const start = performance.now();
      await client.session.prompt({
        path: {id: session.id},
        body: {
          parts: [{type: 'text', text: `turn ${i}`}],
          model: {providerID: 'openai-base-url', modelID: 'gpt-test'},
        },
      });
      times.push(performance.now() - start);
    }
  } finally {
    server.close();
  }
  return times;
}

async function viaStratos(harness: 'claude-code' | 'codex' | 'opencode'): Promise<number[]> {
  const times: number[] = [];
  const definition = workflow({
    input: (await import('zod')).z.strictObject({}),
    output: (await import('zod')).z.object({}),
    async run() {
      const agent = createAgent({harness, ...(harness === 'opencode' ? {model: 'openai/gpt-test'} : {})});
      for (let i = 0; i < turns; i++) {
        const start = performance.now();
        await agent.execute(`turn ${i}`);
        times.push(performance.now() - start);
      }
      return {};
    },
  });
  const result = await invokeWorkflow({
    workflow: {
      name: 'bench',
      directory: cwd,
      manifest: {
        name: 'bench',
        shortDescription: 'b',
        longDescription: 'b',
        version: '1.0.0',
        entrypoint: 'workflow.ts',
      },
    },
    definition,
    input: {},
    invocationDirectory: cwd,
  });
  if (!result.ok) throw result.error;
  return times;
}

function requestChars(server: {modelRequests(): {body: unknown}[]}, from: number, to: number): number {
  const bodies = server.modelRequests().slice(from, to);
  // The first request of a conversation, without fields that differ per process (ids, cache keys, metadata).
  // Claude Code also sends side requests without tools; compare the conversation's own first request.
  const main = bodies.find(
    (request) =>
      Array.isArray((request.body as {tools?: unknown}).tools) || 'input' in (request.body as object),
  );
  const body = {...(main?.body as Record<string, unknown>)};
  for (const key of ['metadata', 'prompt_cache_key', 'client_metadata']) delete body[key];
  if (dump) writeFileSync(`/var/tmp/bench-body-${Date.now()}-${from}.json`, JSON.stringify(body, null, 1));
  return JSON.stringify(body).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .length;
}

async function measure(
  name: string,
  server: {modelRequests(): {body: unknown}[]},
  direct: () => Promise<number[]>,
  harness: 'claude-code' | 'codex' | 'opencode',
) {
  // Warm-up (file caches, first binary start), then direct and Stratos alternately.
  await direct();
  const a0 = server.modelRequests().length;
  const directTimes = await direct();
  const a1 = server.modelRequests().length;
  const stratosTimes = await viaStratos(harness);
  const a2 = server.modelRequests().length;
  // Later turns are the steady state; the first turn includes the process start in both.
  const d = median(directTimes.slice(1));
  const s = median(stratosTimes.slice(1));
  const firstDelta = stratosTimes[0]! - directTimes[0]!;
  const addedChars = requestChars(server, a1, a2) - requestChars(server, a0, a1);
  console.log(
    `${name}: direct ${d.toFixed(1)} ms/turn, via Stratos ${s.toFixed(1)} ms/turn, added ${(s - d).toFixed(1)} ms/turn ` +
      `(first turn incl. start: ${firstDelta >= 0 ? '+' : ''}${firstDelta.toFixed(0)} ms); request size added: ${addedChars} chars ≈ ${Math.ceil(addedChars / 4)} tokens`,
  );
}

const only = (harness: string) => onlyHarness === undefined || onlyHarness === harness;
try {
  if (only('claude-code')) await measure('claude-code', anthropic, directClaude, 'claude-code');
  if (only('codex')) await measure('codex', openai, directCodex, 'codex');
  if (only('opencode')) {
    // OpenCode reads OPENAI_BASE_URL as the chat completions server; its own folders and switches as Stratos sets
    // them for both sides.
    Object.assign(process.env, {
      OPENAI_BASE_URL: `${chat.url}/v1`,
      PATH: `${join(process.cwd(), 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
      XDG_CONFIG_HOME: join(base, 'xdg', 'config'),
      XDG_DATA_HOME: join(base, 'xdg', 'data'),
      XDG_CACHE_HOME: join(base, 'xdg', 'cache'),
      XDG_STATE_HOME: join(base, 'xdg', 'state'),
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_CLAUDE_CODE: '1',
      OPENCODE_DISABLE_PROJECT_CONFIG: '1',
    });
    await measure('opencode', chat, directOpenCode, 'opencode');
  }
} finally {
  await anthropic.close();
  await openai.close();
  await chat.close();
  rmSync(base, {recursive: true, force: true});
}
