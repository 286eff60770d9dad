// Existing native logins, read the way each harness stores them, with no API key in the environment: Claude Code's
// subscription login (`claudeAiOauth` in CLAUDE_CONFIG_DIR/.credentials.json), `codex login` (auth.json in
// CODEX_HOME), `opencode auth login` (auth.json in OpenCode's XDG data folder). A login lets the agent reach its
// model; no file, or a file the harness leaves without a login (after a logout, or holding only MCP credentials),
// is STRATOS_AUTH_REQUIRED before any request. The real binaries run against scripted model servers.
import assert from 'node:assert/strict';
import {mkdir, rm, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {startAnthropicServer} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome} from '../../servers/models/harness-env.ts';
import {startChatServer} from '../../servers/models/openai-chat.ts';
import {startResponsesServer} from '../../servers/models/openai-responses.ts';
import type {ModelServer} from '../../servers/models/sse-server.ts';

const loginWorkflow = `import {createAgent, isStratosError, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({}),
  output: z.object({result: z.string().describe('The text, or the error code')}),
  async run() {
    try {
      return {result: await createAgent('plain').execute('TEXT hello')};
    } catch (error) {
      return {result: isStratosError(error) ? error.code : String(error)};
    }
  },
});
`;

interface NativeLogin {
  harness: 'claude-code' | 'codex' | 'opencode';
  model?: string;
  apiKeyVariable: string;
  startServer(): Promise<ModelServer>;
  createHome(server: ModelServer): Promise<HarnessHome>;
  /** The harness's login file in `home`. */
  file(home: HarnessHome): string;
  /** What the harness writes on sign-in. */
  loggedIn: unknown;
  /** What the file holds with no login: after a logout, or with only other credentials. */
  loggedOut: unknown;
  /**
   * Whether the model request carries the login's credential. OpenCode's OPENAI_BASE_URL provider (how these tests
   * reach the scripted server) has an id of its own, so the login saved for `openai` does not reach it.
   */
  carriesCredential: boolean;
}

const text = () => ({text: 'hello from the scripted model'});
const future = Date.now() + 24 * 3600 * 1000;

const logins: NativeLogin[] = [
  {
    harness: 'claude-code',
    apiKeyVariable: 'ANTHROPIC_API_KEY',
    startServer: () => startAnthropicServer(text),
    createHome: (server) => createHarnessHome({anthropicUrl: server.url}),
    file: (home) => join(home.env.CLAUDE_CONFIG_DIR!, '.credentials.json'),
    loggedIn: {
      claudeAiOauth: {
        accessToken: 'sk-ant-oat01-planted',
        refreshToken: 'sk-ant-ort01-planted',
        expiresAt: future,
        scopes: ['user:inference', 'user:profile'],
        subscriptionType: 'pro',
      },
    },
    loggedOut: {
      mcpOAuth: {'server|abc': {serverName: 'server', accessToken: 'mcp-token', expiresAt: future}},
    },
    carriesCredential: true,
  },
  {
    harness: 'codex',
    model: 'gpt-test',
    apiKeyVariable: 'OPENAI_API_KEY',
    startServer: () => startResponsesServer(text),
    createHome: (server) => createHarnessHome({openaiUrl: server.url}),
    file: (home) => join(home.env.CODEX_HOME!, 'auth.json'),
    // What `codex login --with-api-key` writes.
    loggedIn: {OPENAI_API_KEY: 'sk-openai-planted', tokens: null, last_refresh: null},
    loggedOut: {OPENAI_API_KEY: null, tokens: null, last_refresh: null},
    carriesCredential: true,
  },
  {
    harness: 'opencode',
    model: 'openai/gpt-test',
    apiKeyVariable: 'OPENAI_API_KEY',
    startServer: () => startChatServer(text),
    createHome: (server) => createHarnessHome({openaiUrl: server.url}, {xdg: true}),
    file: (home) => join(home.env.XDG_DATA_HOME!, 'opencode', 'auth.json'),
    loggedIn: {openai: {type: 'api', key: 'sk-openai-planted'}},
    loggedOut: {},
    carriesCredential: false,
  },
];

for (const login of logins) {
  describe(`${login.harness}: native login`, () => {
    let server: ModelServer;
    let home: HarnessHome;
    let project: TempProject;
    let env: Record<string, string>;

    before(async () => {
      server = await login.startServer();
      home = await login.createHome(server);
      const {[login.apiKeyVariable]: _key, ...rest} = home.env;
      env = rest;
      project = await createTempProject(`stratos-native-login-${login.harness}-`);
      const model = login.model === undefined ? '' : `\n    model: ${login.model}`;
      await project.writeWorkflow('login', {
        'workflow.yaml': manifest(
          'login',
          `agents:\n  plain:\n    harness: ${login.harness}${model}\n    allowedMcps: []\n`,
        ),
        'workflow.ts': loginWorkflow,
      });
      const build = await project.cli(['build', 'login', '--json'], {env});
      assert.equal(build.exitCode, 0, build.stdout + build.stderr);
    });

    after(async () => {
      await server?.close();
      await project?.remove();
      await home?.remove();
    });

    const run = async () => {
      const result = await project.cli(['run', 'login', '--input', '{}', '--json'], {env});
      assert.equal(result.exitCode, 0, result.stdout + result.stderr);
      return result.json.data.output.result as string;
    };

    test('no login file: STRATOS_AUTH_REQUIRED before any request', async () => {
      await rm(login.file(home), {force: true});
      const count = server.requests.length;
      assert.equal(await run(), 'STRATOS_AUTH_REQUIRED');
      assert.equal(server.requests.length, count);
    });

    test('a login file without a login: STRATOS_AUTH_REQUIRED before any request', async () => {
      await mkdir(dirname(login.file(home)), {recursive: true});
      await writeFile(login.file(home), JSON.stringify(login.loggedOut), {mode: 0o600});
      const count = server.requests.length;
      assert.equal(await run(), 'STRATOS_AUTH_REQUIRED');
      assert.equal(server.requests.length, count);
    });

    test('a login as the harness saves it: authentication passes and the model is asked', async () => {
      await mkdir(dirname(login.file(home)), {recursive: true});
      await writeFile(login.file(home), JSON.stringify(login.loggedIn), {mode: 0o600});
      const count = server.modelRequests().length;
      const result = await run();
      assert.notEqual(result, 'STRATOS_AUTH_REQUIRED');
      const asked = server.modelRequests().slice(count);
      assert.ok(asked.length > 0, `the model was asked (result: ${result})`);
      if (login.carriesCredential)
        assert.ok(
          asked.some((request) =>
            /planted/.test(String(request.headers.authorization ?? request.headers['x-api-key'])),
          ),
          'with the credential of the login',
        );
    });
  });
}
