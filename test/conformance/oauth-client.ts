// The conformance auth client: `conformance client --command "node test/conformance/oauth-client.ts"` appends
// the MCP server URL. Authorization is Stratos's own OAuth code (discovery, registration preference, browser
// sign-in through BROWSER and the loopback callback, credential store, refresh); the MCP traffic is the SDK
// client with the Authorization header Stratos supplies. A 401 or a 403 insufficient_scope challenge during the
// session leads to a new Stratos sign-in (with the union of the scopes for a step-up), at most twice. The
// client-credentials scenarios (SEP-1046) use `grant: client_credentials` with the secret through an {env:}
// reference or the private key through an owner-only {file:} reference, as a workflow.yaml would.
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {
  Client,
  extractWWWAuthenticateParams,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type {OAuthConfig} from '../../src/manifest/index.ts';
import {authenticateMcpServer} from '../../src/mcp/auth/authenticate.ts';

const serverUrl = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, unknown>;
const home = await mkdtemp(join(tmpdir(), 'stratos-conformance-'));
const browser = fileURLToPath(new URL('./oauth-browser.ts', import.meta.url));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  STRATOS_HOME: home,
  BROWSER: `"${process.execPath}" "${browser}"`,
};

const config: OAuthConfig = {type: 'oauth'};
if (scenario.startsWith('auth/client-credentials-')) {
  config.grant = 'client_credentials';
  // No browser for a machine client: a sign-in attempt would fail the scenario.
  env.BROWSER = 'false';
}
if (typeof context.client_id === 'string') config.clientId = context.client_id;
if (typeof context.client_secret === 'string') {
  env.CONFORMANCE_CLIENT_SECRET = context.client_secret;
  config.clientSecret = '{env:CONFORMANCE_CLIENT_SECRET}';
}
if (typeof context.private_key_pem === 'string') {
  const keyFile = join(home, 'client-key.pem');
  await writeFile(keyFile, context.private_key_pem, {mode: 0o600});
  config.privateKey = `{file:${keyFile}}`;
  if (typeof context.signing_algorithm === 'string') config.signingAlgorithm = context.signing_algorithm;
}
if (scenario === 'auth/basic-cimd')
  config.clientMetadataUrl = 'https://conformance-test.local/client-metadata.json';

let scope: string | undefined;
let challenge: {status: number; scope?: string | undefined} | undefined;

async function token(mode: 'use' | 'login'): Promise<string> {
  const result = await authenticateMcpServer({
    server: 'conformance',
    workflow: 'conformance-client',
    serverUrl,
    config: scope === undefined ? config : {...config, scope},
    directory: home,
    env,
    mode,
    onNotice: (message) => process.stderr.write(`${message}\n`),
  });
  return result.accessToken;
}

async function session(accessToken: string): Promise<void> {
  const watchingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 401 || response.status === 403) {
      challenge = {status: response.status, scope: extractWWWAuthenticateParams(response).scope};
    }
    return response;
  };
  const client = new Client(
    {name: 'stratos-conformance', version: '1.0.0'},
    {versionNegotiation: {mode: 'auto'}},
  );
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl), {
    requestInit: {headers: {Authorization: `Bearer ${accessToken}`}},
    fetch: watchingFetch,
  });
  try {
    await client.connect(transport);
    const {tools} = await client.listTools();
    for (const tool of tools) await client.callTool({name: tool.name, arguments: {}});
  } finally {
    await client.close().catch(() => {});
  }
}

try {
  let accessToken = await token('use');
  for (let attempt = 0; ; attempt++) {
    challenge = undefined;
    try {
      await session(accessToken);
      break;
    } catch (error) {
      if (challenge === undefined || attempt >= 2) throw error;
      const seen: {status: number; scope?: string | undefined} = challenge;
      if (seen.status === 403 && seen.scope !== undefined) {
        scope = [...new Set([...(scope ?? '').split(' '), ...seen.scope.split(' ')].filter(Boolean))].join(
          ' ',
        );
      }
      accessToken = await token('login');
    }
  }
  process.exitCode = 0;
} catch (error) {
  process.stderr.write(
    `conformance client failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
} finally {
  await rm(home, {recursive: true, force: true});
}
