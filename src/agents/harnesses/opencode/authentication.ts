/**
 * OpenCode authentication, checked before any work, in selection and by `stratos provider status`. For a provider
 * whose key variable Stratos knows (./provider-keys.ts): that variable or the provider's entry in OpenCode's login
 * file. Otherwise: a provider API key in the environment (the providers OpenCode reads keys for, such as
 * OPENAI_API_KEY or ANTHROPIC_API_KEY) or OpenCode's own login (`opencode auth login`, saved as auth.json in
 * OpenCode's data folder).
 */
import {readFile} from 'node:fs/promises';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {AuthenticationError} from '../../../errors/index.ts';
import {openCodeKeyVariables} from './provider-keys.ts';

/**
 * Throws AuthenticationError (STRATOS_AUTH_REQUIRED) when `provider` (any, when undefined or not one Stratos tells
 * apart) has neither a key nor an OpenCode login.
 */
export async function checkOpenCodeAuthentication(
  env: Readonly<Record<string, string>>,
  provider?: string,
): Promise<void> {
  const data = join(env.XDG_DATA_HOME ?? join(env.HOME ?? homedir(), '.local', 'share'), 'opencode');
  const variables = provider === undefined ? undefined : openCodeKeyVariables[provider];
  if (provider !== undefined && variables !== undefined) {
    if (variables.some((name) => (env[name] ?? '') !== '')) return;
    if (await hasProviderLogin(join(data, 'auth.json'), provider)) return;
    throw new AuthenticationError(
      'STRATOS_AUTH_REQUIRED',
      `OpenCode has no ${provider} authentication: set ${variables.join(' or ')}, or sign in once with 'opencode auth login' (saved in OpenCode's data folder). Nothing was sent to a model.`,
      {details: {harness: 'opencode', provider}},
    );
  }
  if (Object.entries(env).some(([name, value]) => /_API_KEY$/.test(name) && value !== '')) return;
  if (await hasOpenCodeLogin(join(data, 'auth.json'))) return;
  throw new AuthenticationError(
    'STRATOS_AUTH_REQUIRED',
    `OpenCode has no authentication: set the API key of the model's provider (for example OPENAI_API_KEY), or sign in once with 'opencode auth login' (saved in ${data}). Nothing was sent to a model.`,
    {details: {harness: 'opencode'}},
  );
}

/** Whether OpenCode's login file holds an entry for `provider`. */
async function hasProviderLogin(file: string, provider: string): Promise<boolean> {
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as unknown;
    return typeof saved === 'object' && saved !== null && provider in saved;
  } catch {
    return false;
  }
}

/**
 * `opencode auth login` keeps one entry per provider in auth.json (`{type: 'api', key}`, `{type: 'oauth', access,
 * refresh}`, `{type: 'wellknown', token}`); `opencode auth logout` removes the entry and leaves the file, so an
 * empty one is no login.
 */
async function hasOpenCodeLogin(file: string): Promise<boolean> {
  try {
    const providers = JSON.parse(await readFile(file, 'utf8')) as Record<string, Record<string, unknown>>;
    return Object.values(providers ?? {}).some((entry) =>
      [entry?.key, entry?.access, entry?.refresh, entry?.token].some(
        (secret) => typeof secret === 'string' && secret !== '',
      ),
    );
  } catch {
    return false;
  }
}
