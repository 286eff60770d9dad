// Browser sign-in of a pre-registered client with a fixed callbackPort and redirectUri: the callback listener binds
// the loopback address the configured redirect names (127.0.0.1, [::1], or both families for localhost), so the
// redirect of real headless Chromium reaches it. Real CLI, real authorization server (oidc-provider), real browser.
import assert from 'node:assert/strict';
import {createServer} from 'node:net';
import {after, before, describe, test} from 'node:test';
import {findFreePort} from '../../helpers/closed-port.ts';
import {browserCommand, type OAuthTestServers, startOAuthServers} from '../../servers/oauth/index.ts';
import {
  assertNoSecretsLeaked,
  createOAuthProject,
  type OAuthProject,
  storedSecrets,
} from '../../servers/oauth/project.ts';

/** Whether this machine can listen on IPv6 loopback. */
async function hasIpv6Loopback(): Promise<boolean> {
  const server = createServer();
  return new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(0, '::1', () => server.close(() => resolve(true)));
  });
}

const ipv6 = await hasIpv6Loopback();
const noIpv6 = ipv6 ? false : 'this machine has no IPv6 loopback address (::1)';

interface Case {
  title: string;
  /** The redirect host as written in a URL. */
  host: '127.0.0.1' | '[::1]' | 'localhost';
  /** What the listener must bind for the port to be usable. */
  listen: string[];
  /** Only callbackPort (the redirect is then http://127.0.0.1:<port>/mcp/oauth/callback), or a redirectUri too. */
  redirectUri: boolean;
  skip: false | string;
}

const cases: Case[] = [
  {
    title: 'callbackPort alone (127.0.0.1)',
    host: '127.0.0.1',
    listen: ['127.0.0.1'],
    redirectUri: false,
    skip: false,
  },
  {title: 'redirectUri on [::1]', host: '[::1]', listen: ['::1'], redirectUri: true, skip: noIpv6},
  {
    title: 'redirectUri on localhost',
    host: 'localhost',
    listen: ipv6 ? ['127.0.0.1', '::1'] : ['127.0.0.1'],
    redirectUri: true,
    skip: false,
  },
];

const ports = new Map<string, number>();
for (const c of cases) if (c.skip === false) ports.set(c.host, await findFreePort(c.listen));
const redirectOf = (c: Case) => `http://${c.host}:${ports.get(c.host)}/mcp/oauth/callback`;

let oauth: OAuthTestServers;
const projects: OAuthProject[] = [];
const leaked: string[] = [];

before(async () => {
  oauth = await startOAuthServers({
    clients: [
      {
        client_id: 'stratos-fixed-redirect',
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: cases.filter((c) => c.skip === false).map(redirectOf),
      },
    ],
  });
});
after(async () => {
  for (const project of projects) {
    await assertNoSecretsLeaked(project, leaked);
    await project.remove();
  }
  await oauth.close();
});

describe('a pre-registered client with a fixed redirect signs in through Chromium', () => {
  for (const c of cases) {
    test(c.title, {skip: c.skip}, async () => {
      const port = ports.get(c.host)!;
      const redirect = redirectOf(c);
      const p = await createOAuthProject(oauth.mcpUrl, {
        authYaml: [
          'clientId: stratos-fixed-redirect',
          `callbackPort: ${port}`,
          ...(c.redirectUri ? [`redirectUri: ${JSON.stringify(redirect)}`] : []),
        ],
      });
      projects.push(p);
      const registrationsBefore = oauth.as.registrations;
      const login = await p.run(['mcp', 'login', '--name', 'stratum', '--json'], {BROWSER: browserCommand()});
      assert.equal(login.exitCode, 0, login.stdout + login.stderr);
      assert.equal(login.json.data.clientId, 'stratos-fixed-redirect');
      assert.equal(
        oauth.as.registrations,
        registrationsBefore,
        'the pre-registered client is used, none registered',
      );
      const opened = /opening your browser at (\S+)/.exec(login.stderr)?.[1];
      assert.ok(opened !== undefined, login.stderr);
      assert.equal(new URL(opened).searchParams.get('redirect_uri'), redirect);

      const [record] = (await p.readCredentials()).records;
      assert.equal(record?.clientId, 'stratos-fixed-redirect');
      assert.equal(typeof record?.accessToken, 'string');
      leaked.push(...(await storedSecrets(p)));
    });
  }
});
