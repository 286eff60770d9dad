// OpenCode and credentials refreshed between requests: an OpenCode agent selects an HTTP MCP server (the OAuth
// test resource server, which checks the bearer token on every request) whose Authorization header is a {file:}
// reference. The workflow replaces the token between two executes; the second execute's MCP requests carry the
// new token, so OpenCode's live MCP configuration was updated before that request (without the hook bridge).
import assert from 'node:assert/strict';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {resolveMcpAuthProvider} from '../../../src/mcp/auth/auth-provider.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';
import {type ChatServer, startChatServer} from '../../servers/models/openai-chat.ts';
import {type OAuthTestServers, startOAuthServers} from '../../servers/oauth/index.ts';

const secret = 'opencode-refresh-secret-7c1a';
const clients = [
  {
    client_id: 'ci',
    client_secret: secret,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
  },
];

let oauth: OAuthTestServers;
let chat: ChatServer;
let project: TempProject;
let home: HarnessHome;
const tokenHomes: string[] = [];

/** A valid access token of the machine client, fetched as Stratos fetches one (its own credential store). */
async function fetchToken(): Promise<string> {
  const tokenHome = await mkdtemp(join(tmpdir(), 'stratos-oc-token-'));
  tokenHomes.push(tokenHome);
  const provider = resolveMcpAuthProvider(
    {
      type: 'http',
      url: oauth.mcpUrl,
      auth: {type: 'oauth', grant: 'client_credentials', clientId: 'ci', clientSecret: '{env:CI_SECRET}'},
    },
    {
      server: 'stratum',
      workflow: 'test',
      directory: tokenHome,
      env: {...process.env, STRATOS_HOME: tokenHome, CI_SECRET: secret},
    },
  )!;
  return (await provider.headers()).Authorization!;
}

const workflowTs = `import {copyFileSync} from 'node:fs';
import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({
    tokenFile: z.string().describe('The header file'),
    nextTokenFile: z.string().describe('The token for the second execute'),
  }),
  output: z.object({first: z.string().describe('First answer'), second: z.string().describe('Second answer')}),
  async run({tokenFile, nextTokenFile}) {
    const agent = createAgent('caller');
    const first = await agent.execute('WHOAMI first');
    copyFileSync(nextTokenFile, tokenFile);
    const second = await agent.execute('WHOAMI second');
    return {first, second};
  },
});
`;

before(async () => {
  oauth = await startOAuthServers({clients, clientCredentials: true});
  chat = await startChatServer((turn) => {
    if (turn.toolNames.length === 0) return {text: 'side'};
    const result = turn.toolResults.find((r) => r.name === 'stratum_stratum_whoami');
    if (result !== undefined) return {text: `whoami said ${result.output}`};
    return {toolCall: {name: 'stratum_stratum_whoami', arguments: {}}};
  });
  home = await createHarnessHome({openaiUrl: chat.url}, {xdg: true});
  project = await createTempProject('stratos-opencode-credentials-');
});

after(async () => {
  await chat?.close();
  await oauth?.close();
  await project?.remove();
  await home?.remove();
  for (const dir of tokenHomes) await rm(dir, {recursive: true, force: true});
});

test('opencode: refreshed MCP headers reach OpenCode before the next request', async () => {
  const [first, second] = [await fetchToken(), await fetchToken()];
  assert.notEqual(first, second);
  const tokenFile = join(project.home, 'token.txt');
  const nextTokenFile = join(project.home, 'next-token.txt');
  await writeFile(tokenFile, first, {mode: 0o600});
  await writeFile(nextTokenFile, second, {mode: 0o600});
  await project.writeWorkflow('refresh', {
    'workflow.yaml': manifest(
      'refresh',
      `mcp:
  servers:
    stratum:
      type: http
      url: ${oauth.mcpUrl}
      headers:
        Authorization: '{file:${tokenFile}}'
agents:
  caller:
    harness: opencode
    model: openai/gpt-test
    allowedMcps: [stratum]
`,
    ),
    'workflow.ts': workflowTs,
  });
  const build = await project.cli(['build', 'refresh', '--json'], {env: home.env});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
  const bearer = (header: string) => header.slice('Bearer '.length);
  assert.equal(oauth.rs.acceptedTokens.includes(bearer(second)), false);

  const since = oauth.rs.acceptedTokens.length;
  const rejectedBefore = oauth.rs.rejected;
  const input = JSON.stringify({tokenFile, nextTokenFile});
  const result = await project.cli(['run', 'refresh', '--json', '--input', input], {env: home.env});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.match(result.json.data.output.first, /^whoami said .*ci/s);
  assert.match(result.json.data.output.second, /^whoami said .*ci/s);
  const seen = oauth.rs.acceptedTokens.slice(since);
  assert.ok(seen.includes(bearer(first)), 'the first execute used the first token');
  assert.ok(seen.includes(bearer(second)), 'the second execute used the refreshed token');
  assert.equal(seen.at(-1), bearer(second), 'the last MCP request carried the refreshed token');
  assert.equal(seen.lastIndexOf(bearer(first)) < seen.indexOf(bearer(second)), true);
  assert.equal(oauth.rs.rejected, rejectedBefore, 'no MCP request of the run was rejected');
  assert.deepEqual(await survivingProcesses(home.marker), []);
});
