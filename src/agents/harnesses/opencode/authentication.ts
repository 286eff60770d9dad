/**
 * OpenCode authentication, checked before any work: a provider API key in the environment (the providers
 * OpenCode reads keys for, such as OPENAI_API_KEY or ANTHROPIC_API_KEY) or OpenCode's own login
 * (`opencode auth login`, saved as auth.json in OpenCode's data folder).
 */
import {readFile} from 'node:fs/promises';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {AuthenticationError} from '../../../errors/index.ts';

export async function checkOpenCodeAuthentication(env: Readonly<Record<string, string>>): Promise<void> {
  if (Object.entries(env).some(([name, value]) => /_API_KEY$/.test(name) && value !== '')) return;
  const data = join(env.XDG_DATA_HOME ?? join(env.HOME ?? homedir(), '.local', 'share'), 'opencode');
  if (await hasOpenCodeLogin(join(data, 'auth.json'))) return;
  throw new AuthenticationError(
    'STRATOS_AUTH_REQUIRED',
    `OpenCode has no authentication: set the API key of the model's provider (for example OPENAI_API_KEY), or sign in once with 'opencode auth login' (saved in ${data}). Nothing was sent to a model.`,
    {details: {harness: 'opencode'}},
  );
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
