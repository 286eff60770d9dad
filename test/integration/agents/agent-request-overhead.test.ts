// Stratos adds no tokens to an agent's model requests (design principle "minimal context"): for each harness, the
// conversation's first model request when a plain agent runs through `stratos run` equals the one the harness
// sends when driven directly through its SDK with the same native settings (no system prompt, no MCP servers, the
// same removed interactive tools), against the same scripted model server, from the same folder. Only fields that
// carry no tokens may differ: per-process identifiers (Claude Code's `metadata.user_id`, Codex's
// `prompt_cache_key` and `client_metadata`) and UUIDs. bench/agent-turn.bench.ts measures the time per turn.
import assert from 'node:assert/strict';
import {createServer} from 'node:net';
import {after, before, describe, test} from 'node:test';
import {query, type SDKUserMessage} from '@anthropic-ai/claude-agent-sdk';
import {Codex} from '@openai/codex-sdk';
import {createOpencodeClient, createOpencodeServer} from '@opencode-ai/sdk';
import {cleanEnv} from '../../helpers/run-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {startAnthropicServer} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome} from '../../servers/models/harness-env.ts';
import {startChatServer} from '../../servers/models/openai-chat.ts';
import {startResponsesServer} from '../../servers/models/openai-responses.ts';
import type {ModelServer} from '../../servers/models/sse-server.ts';

const prompt = 'OVERHEAD say ok';

/** Fields that carry no tokens and differ per process, removed before comparing. */
const untokenedFields = ['metadata', 'prompt_cache_key', 'client_metadata'];

function normalize(body: unknown): unknown {
  const copy = {...(body as Record<string, unknown>)};
  for (const key of untokenedFields) delete copy[key];
  return JSON.parse(
    JSON.stringify(copy).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>'),
  );
}

/** The conversation's own request with the prompt (side requests, such as titles, carry no tools). */
function mainRequest(server: ModelServer, from: number): unknown {
  const found = server
    .modelRequests()
    .slice(from)
    .find((request) => {
      const body = request.body as {tools?: unknown; input?: unknown};
      return JSON.stringify(body).includes(prompt) && (Array.isArray(body.tools) || body.input !== undefined);
    });
  assert.ok(found !== undefined, 'the harness sent the prompt with its tools');
  return normalize(found.body);
}

interface Target {
  harness: 'claude-code' | 'codex' | 'opencode';
  model?: string;
  startServer(): Promise<ModelServer>;
  createHome(server: ModelServer): Promise<HarnessHome>;
  /** One turn through the harness SDK alone, with the native settings Stratos gives a plain agent. */
  direct(env: Record<string, string>, cwd: string): Promise<void>;
}

const ok = () => ({text: 'ok'});

const targets: Target[] = [
  {
    harness: 'claude-code',
    startServer: () => startAnthropicServer(ok),
    createHome: (server) => createHarnessHome({anthropicUrl: server.url}),
    async direct(env, cwd) {
      let send: (message: SDKUserMessage) => void = () => {};
      const input = {
        async *[Symbol.asyncIterator]() {
          yield await new Promise<SDKUserMessage>((resolve) => (send = resolve));
        },
      };
      const q = query({
        prompt: input,
        options: {
          cwd,
          env,
          settingSources: [],
          strictMcpConfig: true,
          mcpServers: {},
          disallowedTools: ['AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode'],
          // Stratos approves enabled tools itself, which makes the binary offer its interactive tools (removed above).
          canUseTool: async (_name, input) => ({behavior: 'allow', updatedInput: input}),
          includePartialMessages: true,
        },
      });
      const iterator = q[Symbol.asyncIterator]();
      send({
        type: 'user',
        message: {role: 'user', content: prompt},
        parent_tool_use_id: null,
        session_id: '',
      } as SDKUserMessage);
      for (;;) {
        const {value, done} = await iterator.next();
        if (done === true || value?.type === 'result') break;
      }
      q.close();
    },
  },
  {
    harness: 'codex',
    model: 'gpt-test',
    startServer: () => startResponsesServer(ok),
    createHome: (server) => createHarnessHome({openaiUrl: server.url}),
    async direct(env, cwd) {
      const codex = new Codex({
        env,
        config: {
          analytics: {enabled: false},
          features: {plugins: false},
          mcp_servers: {},
          model_provider: 'stratos_openai',
          model_providers: {
            stratos_openai: {
              name: 'OpenAI (OPENAI_BASE_URL)',
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
        model: 'gpt-test',
      });
      await thread.run(prompt);
    },
  },
  {
    harness: 'opencode',
    model: 'openai/gpt-test',
    startServer: () => startChatServer(ok),
    createHome: (server) => createHarnessHome({openaiUrl: server.url}, {xdg: true}),
    async direct(env, cwd) {
      const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const {port} = probe.address() as {port: number};
          probe.close(() => resolve(port));
        });
      });
      // createOpencodeServer starts `opencode serve` with this process's environment.
      const saved = {...process.env};
      for (const key of Object.keys(process.env)) delete process.env[key];
      Object.assign(process.env, env, {
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_CLAUDE_CODE: '1',
        OPENCODE_DISABLE_PROJECT_CONFIG: '1',
      });
      const model = 'openai-base-url/gpt-test';
      let server: Awaited<ReturnType<typeof createOpencodeServer>>;
      try {
        server = await createOpencodeServer({
          port,
          timeout: 120_000,
          config: {
            autoupdate: false,
            share: 'disabled',
            plugin: [],
            model,
            small_model: model,
            provider: {
              'openai-base-url': {
                npm: '@ai-sdk/openai-compatible',
                name: 'OpenAI (OPENAI_BASE_URL)',
                options: {baseURL: env.OPENAI_BASE_URL, apiKey: '{env:OPENAI_API_KEY}'},
                models: {'gpt-test': {name: 'gpt-test', tool_call: true}},
              },
            },
            tools: {question: false},
            mcp: {},
          } as never,
        });
      } finally {
        for (const key of Object.keys(process.env)) delete process.env[key];
        Object.assign(process.env, saved);
      }
      try {
        const client = createOpencodeClient({baseUrl: server.url, directory: cwd});
        const session = (await client.session.create({body: {}})).data!;
        await client.session.prompt({
          path: {id: session.id},
          body: {
            parts: [{type: 'text', text: prompt}],
            model: {providerID: 'openai-base-url', modelID: 'gpt-test'},
          },
        });
      } finally {
        server.close();
      }
    },
  },
];

const overheadWorkflow = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({}),
  output: z.object({text: z.string().describe('The answer')}),
  async run() {
    return {text: await createAgent('plain').execute(${JSON.stringify(prompt)})};
  },
});
`;

for (const target of targets) {
  describe(`${target.harness}: request overhead`, () => {
    let server: ModelServer;
    let home: HarnessHome;
    let project: TempProject;

    before(async () => {
      server = await target.startServer();
      home = await target.createHome(server);
      project = await createTempProject(`stratos-overhead-${target.harness}-`);
      const model = target.model === undefined ? '' : `\n    model: ${target.model}`;
      await project.writeWorkflow('overhead', {
        'workflow.yaml': manifest(
          'overhead',
          `agents:\n  plain:\n    harness: ${target.harness}${model}\n    allowedMcps: []\n`,
        ),
        'workflow.ts': overheadWorkflow,
      });
      const build = await project.cli(['build', 'overhead', '--json'], {env: home.env});
      assert.equal(build.exitCode, 0, build.stdout + build.stderr);
    });

    after(async () => {
      await server?.close();
      await project?.remove();
      await home?.remove();
    });

    test('the first request through Stratos equals the one the SDK sends alone', async () => {
      const directFrom = server.modelRequests().length;
      // The SDK alone gets the environment Stratos gives the harness: the CLI's (the test process's, the project's
      // and the harness home's) without Stratos's own variables. Harnesses read more than their own variables
      // (Claude Code names $SHELL in its system prompt), so anything less would compare two environments.
      const cliEnv = {...cleanEnv(), ...project.env, ...home.env};
      const harnessEnv = Object.fromEntries(
        Object.entries(cliEnv).filter(
          (entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith('STRATOS_'),
        ),
      );
      await target.direct(harnessEnv, project.cwd);
      const direct = mainRequest(server, directFrom);
      const stratosFrom = server.modelRequests().length;
      const result = await project.cli(['run', 'overhead', '--input', '{}', '--json'], {env: home.env});
      assert.equal(result.exitCode, 0, result.stdout + result.stderr);
      assert.deepEqual(mainRequest(server, stratosFrom), direct);
    });
  });
}
