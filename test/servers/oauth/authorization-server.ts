/**
 * A real OAuth 2.1 authorization server for tests: oidc-provider on 127.0.0.1 with the properties of the Stratum
 * MCP server (example-mcp-server-stratum.txt): Dynamic Client Registration, PKCE S256 required, 60-second
 * single-use codes, 1-hour access tokens (changeable per test), refresh tokens rotated on every use (a replayed one
 * revokes the grant), loopback redirects on any port (native clients), scopes mcp:read and mcp:write for the MCP
 * resource. Login and consent are plain HTML forms that a real browser fills in. Every token-endpoint request is
 * counted by grant type. With `clientCredentials`, the client-credentials grant of machine clients (SEP-1046) is
 * enabled for pre-registered clients (client_secret_basic or private_key_jwt with their `jwks`);
 * `clientAuthMethods` limits the token-endpoint authentication methods it advertises and accepts.
 */
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import Provider from 'oidc-provider';

export interface AuthorizationServerSettings {
  /** Lifetime of new access tokens, seconds (default 3600). */
  accessTokenTtlSeconds: number;
  /** Called after each token request is handled and before its response is sent. */
  afterTokenRequest?:
    | ((grantType: string, ok: boolean, connection: {drop(): void}) => Promise<void> | void)
    | undefined;
}

export interface TestAuthorizationServer {
  issuer: string;
  provider: Provider;
  settings: AuthorizationServerSettings;
  /** Token-endpoint requests by grant type (successful and failed). */
  tokenRequests: Record<string, number>;
  /** Failed token requests by OAuth error code. */
  tokenErrors: Record<string, number>;
  registrations: number;
  /** The password every test user signs in with. */
  password: string;
  close(): Promise<void>;
}

export const testPassword = 'correct horse';
export const mcpScopes = ['mcp:read', 'mcp:write'];

export interface StartAuthorizationServerOptions {
  resource: () => string;
  /** Pre-registered clients (oidc-provider client metadata), such as a confidential client with a secret. */
  clients?: Record<string, unknown>[];
  /** Enables (and advertises) the client_credentials grant. */
  clientCredentials?: boolean;
  /** The token-endpoint authentication methods (default: oidc-provider's). */
  clientAuthMethods?: string[];
}

export async function startAuthorizationServer(
  options: StartAuthorizationServerOptions,
): Promise<TestAuthorizationServer> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const settings: AuthorizationServerSettings = {accessTokenTtlSeconds: 3600};
  const tokenRequests: Record<string, number> = {};
  const tokenErrors: Record<string, number> = {};
  let registrations = 0;

  const provider = new Provider(issuer, {
    clients: (options.clients ?? []) as never,
    scopes: ['openid', 'offline_access', ...mcpScopes],
    cookies: {keys: ['stratos-test-cookie-key']},
    pkce: {required: () => true},
    ...(options.clientAuthMethods === undefined
      ? {}
      : {clientAuthMethods: options.clientAuthMethods as never}),
    features: {
      clientCredentials: {enabled: options.clientCredentials === true},
      registration: {enabled: true},
      devInteractions: {enabled: false},
      revocation: {enabled: true},
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.resource(),
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: mcpScopes.join(' '),
          accessTokenTTL: settings.accessTokenTtlSeconds,
          accessTokenFormat: 'opaque',
        }),
      },
    },
    ttl: {
      AuthorizationCode: 60,
      AccessToken: () => settings.accessTokenTtlSeconds,
      RefreshToken: 30 * 24 * 3600,
      Grant: 30 * 24 * 3600,
      Interaction: 600,
      Session: 24 * 3600,
    },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    findAccount: async (_ctx, id) => ({accountId: id, claims: async () => ({sub: id})}),
    interactions: {url: (_ctx, interaction) => `/interaction/${interaction.uid}`},
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><h1>Error</h1><pre>${escapeHtml(JSON.stringify(out))}</pre>`;
    },
  });
  provider.proxy = false;
  provider.on('grant.success', (ctx) => count(tokenRequests, String(ctx.oidc.params?.grant_type)));
  provider.on('grant.error', (ctx, error: {error?: string}) => {
    count(tokenRequests, String(ctx.oidc.params?.grant_type));
    count(tokenErrors, error.error ?? 'unknown');
  });
  provider.on('registration_create.success', () => {
    registrations += 1;
  });
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === '/token' && ctx.method === 'POST' && settings.afterTokenRequest !== undefined) {
      await settings.afterTokenRequest(String(ctx.oidc?.params?.grant_type), ctx.status === 200, {
        drop: () => ctx.req.socket.destroy(),
      });
    }
  });

  const callback = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, {'content-type': 'text/plain'});
      res.end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', issuer);
    // RFC 8414 metadata under its own well-known name (oidc-provider serves the OpenID one).
    if (url.pathname === '/.well-known/oauth-authorization-server')
      req.url = '/.well-known/openid-configuration';
    const match = /^\/interaction\/([^/]+)(\/(login|confirm|deny))?$/.exec(url.pathname);
    if (match === null) {
      callback(req, res);
      return;
    }
    const details = await provider.interactionDetails(req, res);
    const action = match[3];
    if (req.method === 'GET') {
      sendHtml(res, details.prompt.name === 'login' ? loginPage(details.uid) : await consentPage(details));
      return;
    }
    const form = new URLSearchParams(await readBody(req));
    if (action === 'login') {
      const user = form.get('username') ?? '';
      if (user === '' || form.get('password') !== testPassword) {
        sendHtml(res, loginPage(details.uid, 'Wrong user name or password.'));
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        {login: {accountId: user}},
        {mergeWithLastSubmission: false},
      );
      return;
    }
    if (action === 'deny') {
      await provider.interactionFinished(
        req,
        res,
        {error: 'access_denied', error_description: 'The user denied the request.'},
        {mergeWithLastSubmission: false},
      );
      return;
    }
    const {prompt, params, session} = details;
    let grant = details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId);
    grant ??= new provider.Grant({accountId: session!.accountId, clientId: String(params.client_id)});
    const missing = prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      {consent: details.grantId === undefined ? {grantId} : {}},
      {mergeWithLastSubmission: true},
    );
  }

  async function consentPage(details: Awaited<ReturnType<Provider['interactionDetails']>>): Promise<string> {
    const client = await provider.Client.find(String(details.params.client_id));
    const redirect = new URL(String(details.params.redirect_uri));
    return page(
      'Authorize access',
      `<p id="client">${escapeHtml(client?.clientName ?? String(details.params.client_id))} asks for: ` +
        `<span id="scopes">${escapeHtml(String(details.params.scope ?? 'mcp:read'))}</span>, returning you to ${escapeHtml(redirect.host)}.</p>` +
        `<form method="post" action="/interaction/${details.uid}/confirm"><button id="approve" type="submit">Approve</button></form>` +
        `<form method="post" action="/interaction/${details.uid}/deny"><button id="deny" type="submit">Deny</button></form>`,
    );
  }

  return {
    issuer,
    provider,
    settings,
    tokenRequests,
    tokenErrors,
    get registrations() {
      return registrations;
    },
    password: testPassword,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function loginPage(uid: string, problem?: string): string {
  return page(
    'Sign in',
    (problem === undefined ? '' : `<p id="problem">${escapeHtml(problem)}</p>`) +
      `<form method="post" action="/interaction/${uid}/login">` +
      '<label>User <input id="username" name="username" autocomplete="off"></label>' +
      '<label>Password <input id="password" name="password" type="password"></label>' +
      '<button id="sign-in" type="submit">Sign in</button></form>',
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
}

function sendHtml(res: ServerResponse, html: string): void {
  res.writeHead(200, {'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store'}).end(html);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function count(counter: Record<string, number>, key: string): void {
  counter[key] = (counter[key] ?? 0) + 1;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
