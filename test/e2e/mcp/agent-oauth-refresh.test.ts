// The between-request credential recheck of an agent, end to end: the real CLI runs a workflow whose Claude Code
// agent (the real claude binary, driven by a scripted Anthropic server) calls a tool of an OAuth-protected MCP
// server (a real oidc-provider authorization server that rotates refresh tokens, a Stratum-like resource server
// that rejects missing and expired tokens); the sign-in goes through real headless Chromium.
//
// The arrangement: the stored token is put inside the 5-minute margin before the run, so workflow-start
// authentication refreshes it (refresh 1, before any model request) and the first execute uses that token. A
// refreshed token lives an hour, so nothing would be due again within one run; to stand in for the time passing
// between two requests, the workflow code (between its two execute calls) moves the stored expiry back inside the
// margin, in the credential file the test points it to. The second execute must then recheck, refresh
// (refresh 2, after the first execute and before the second's model request), save the rotated tokens, and hand
// Claude Code the new access token, which it must use for the second tool call. So each near-expiry point sees
// exactly one refresh_token grant, and the run sees two in all.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {
  type AnthropicServer,
  type AnthropicTurn,
  isMainTurn,
  resultOf,
  startAnthropicServer,
  toolCall,
} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';
import {browserCommand, type OAuthTestServers, startOAuthServers} from '../../servers/oauth/index.ts';
import {
  assertNoSecretsLeaked,
  createOAuthProject,
  type OAuthProject,
  storedSecrets,
} from '../../servers/oauth/project.ts';

const workflowName = 'agent-stratum';
const whoami = 'mcp__stratum__stratum_whoami';

const workflowTs = `import {readFileSync, writeFileSync} from 'node:fs';
import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({}),
  output: z.object({first: z.string().describe('First answer'), second: z.string().describe('Second answer')}),
  async run() {
    const agent = createAgent('checker');
    const first = await agent.execute('FIRST call the whoami tool');
    // Time passes between requests: the stored token is near expiry again (the test's stand-in for waiting).
    const file = process.env.TEST_CREDENTIALS_FILE!;
    const data = JSON.parse(readFileSync(file, 'utf8'));
    for (const record of data.records) record.expiresAt = Math.floor(Date.now() / 1000) + 120;
    writeFileSync(file, JSON.stringify(data));
    const second = await agent.execute('SECOND call the whoami tool');
    return {first, second};
  },
});
`;

const workflowYaml = (mcpUrl: string) => `name: ${workflowName}
shortDescription: Test workflow ${workflowName}.
longDescription: Used by the Stratos tests.
version: "1.0.0"
mcp:
  servers:
    stratum:
      type: http
      url: ${mcpUrl}
      auth:
        type: oauth
agents:
  checker:
    harness: claude-code
    allowedMcps: [stratum]
`;

interface ToolCallSeen {
  /** Bearer tokens the resource server accepted between the model's call and the tool result reaching it. */
  tokens: string[];
  result: string;
  isError: boolean;
  /** The stored access token when the tool result came back. */
  storedAccessToken: string;
}

interface RefreshSeen {
  /** Main-conversation model requests before the refresh. */
  mainTurns: number;
  toolCalls: number;
  /** The refresh token being used (read from the credential file while the grant is answered). */
  usedRefreshToken: string;
}

let oauth: OAuthTestServers;
let model: AnthropicServer;
let home: HarnessHome;
let project: OAuthProject;
const leaked: string[] = [];
const toolCalls: ToolCallSeen[] = [];
const refreshes: RefreshSeen[] = [];
let mainTurns = 0;
let callMark: number | undefined;

async function storedRecord(): Promise<Record<string, unknown>> {
  const data = await project.readCredentials();
  assert.equal(data.records.length, 1);
  return data.records[0]!;
}

async function reply(turn: AnthropicTurn) {
  if (!isMainTurn(turn)) return {text: 'side'};
  mainTurns += 1;
  const result = resultOf(turn, whoami);
  if (result !== undefined) {
    const record = await storedRecord();
    toolCalls.push({
      tokens: oauth.rs.acceptedTokens.slice(callMark),
      result: result.content,
      isError: result.isError,
      storedAccessToken: record.accessToken as string,
    });
    callMark = undefined;
    return {text: `whoami said ${result.content}${result.isError ? ' (error)' : ''}`};
  }
  const next = toolCall(turn, whoami, {});
  if ('toolUse' in next && next.toolUse.name === whoami) callMark = oauth.rs.acceptedTokens.length;
  return next;
}

before(async () => {
  oauth = await startOAuthServers();
  model = await startAnthropicServer(reply);
  home = await createHarnessHome({anthropicUrl: model.url});
  project = await createOAuthProject(oauth.mcpUrl, {name: workflowName});
  await project.writeWorkflow(workflowName, {
    'workflow.yaml': workflowYaml(oauth.mcpUrl),
    'workflow.ts': workflowTs,
  });
  oauth.as.settings.afterTokenRequest = async (grantType) => {
    if (grantType !== 'refresh_token') return;
    const record = await storedRecord();
    // The tokens this grant replaces are secrets too (the stored file holds only the newest at the end).
    leaked.push(record.accessToken as string, record.refreshToken as string);
    refreshes.push({mainTurns, toolCalls: toolCalls.length, usedRefreshToken: record.refreshToken as string});
  };
});

after(async () => {
  if (oauth !== undefined) oauth.as.settings.afterTokenRequest = undefined;
  try {
    if (project !== undefined && leaked.length > 0) await assertNoSecretsLeaked(project, leaked);
  } finally {
    await project?.remove();
    await home?.remove();
    await model?.close();
    await oauth?.close();
  }
});

test('before each agent request the OAuth token is rechecked, refreshed, saved and passed to Claude Code', async () => {
  const env = {...home.env, BROWSER: 'false', TEST_CREDENTIALS_FILE: project.credentialsFile};
  const login = await project.run(['mcp', 'login', '--name', 'stratum', '--json'], {
    ...env,
    BROWSER: browserCommand(),
  });
  assert.equal(login.exitCode, 0, login.stderr);
  const signedIn = await storedRecord();
  leaked.push(...(await storedSecrets(project)));
  await project.setExpiry(120);

  const refreshesBefore = oauth.as.tokenRequests.refresh_token ?? 0;
  const run = await project.run(['run', workflowName, '--input', '{}', '--json'], env);
  assert.equal(run.exitCode, 0, run.stdout + run.stderr);
  assert.deepEqual(run.json.data.output, {
    first: 'whoami said {"user":"alice"}',
    second: 'whoami said {"user":"alice"}',
  });
  leaked.push(...(await storedSecrets(project)), ...oauth.rs.acceptedTokens);

  // One refresh per near-expiry point: at workflow start (before any model request) and before the second
  // request (after the first tool call); none before the first request, whose token was fresh.
  assert.equal((oauth.as.tokenRequests.refresh_token ?? 0) - refreshesBefore, 2, 'two refresh_token grants');
  assert.equal(oauth.as.tokenErrors.invalid_grant ?? 0, 0);
  const secondPrompt = model
    .turns()
    .filter(isMainTurn)
    .findIndex((turn) => turn.lastText.includes('SECOND'));
  assert.ok(secondPrompt > 0, 'the second execute reached the model');
  assert.deepEqual(
    refreshes.map(({mainTurns, toolCalls}) => ({mainTurns, toolCalls})),
    [
      {mainTurns: 0, toolCalls: 0},
      {mainTurns: secondPrompt, toolCalls: 1},
    ],
    'refreshed at workflow start, and between the first tool call and the second request',
  );
  assert.equal(
    refreshes[0]!.usedRefreshToken,
    signedIn.refreshToken,
    'the start refresh used the login token',
  );
  assert.notEqual(refreshes[1]!.usedRefreshToken, signedIn.refreshToken, 'the second used the rotated one');

  // Each tool call reached the resource server with the token current at its request; the second with the token
  // of the between-request refresh, already saved in credentials.json when the harness used it.
  assert.equal(toolCalls.length, 2);
  const [first, second] = toolCalls as [ToolCallSeen, ToolCallSeen];
  for (const call of toolCalls) {
    assert.equal(call.isError, false);
    assert.match(call.result, /"user":"alice"/, 'the resource server identified the signed-in user');
    assert.ok(call.tokens.length > 0, 'the tool call reached the resource server');
    const stale = call.tokens.filter((token) => token !== call.storedAccessToken).length;
    assert.equal(stale, 0, 'the tool call carried only the access token stored at that time');
  }
  assert.notEqual(
    first.storedAccessToken,
    signedIn.accessToken,
    'the first call used the start-refreshed token',
  );
  assert.notEqual(second.storedAccessToken, first.storedAccessToken, 'the second call used the new token');
  assert.ok(
    !oauth.rs.acceptedTokens.includes(signedIn.accessToken as string),
    'the near-expiry token was never sent',
  );

  // The rotated refresh token of the second refresh was saved, with the new access token and a fresh expiry.
  const final = await storedRecord();
  assert.equal(final.accessToken, second.storedAccessToken);
  assert.notEqual(final.refreshToken, refreshes[1]!.usedRefreshToken);
  const current = await oauth.as.provider.RefreshToken.find(final.refreshToken as string);
  assert.ok(current !== undefined && !current.consumed, 'the saved refresh token is the current one');
  assert.ok((final.expiresAt as number) > Date.now() / 1000 + 3000);

  assert.deepEqual(await survivingProcesses(home.marker), [], 'a claude process outlived its run');
});
