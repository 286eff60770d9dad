/**
 * OpenCode authentication, checked before any work: a provider API key in the environment (the providers
 * OpenCode reads keys for, such as OPENAI_API_KEY or ANTHROPIC_API_KEY) or OpenCode's own login
 * (`opencode auth login`, saved as auth.json in OpenCode's data folder).
 */
import {access} from 'node:fs/promises';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {AuthenticationError} from '../../../errors/index.ts';

export async function checkOpenCodeAuthentication(env: Readonly<Record<string, string>>): Promise<void> {
  if (Object.entries(env).some(([name, value]) => /_API_KEY$/.test(name) && value !== '')) return;
  const data = join(env.XDG_DATA_HOME ?? join(env.HOME ?? homedir(), '.local', 'share'), 'opencode');
  try {
    await access(join(data, 'auth.json'));
    return;
  } catch {}
  throw new AuthenticationError(
    'STRATOS_AUTH_REQUIRED',
    `OpenCode has no authentication: set the API key of the model's provider (for example OPENAI_API_KEY), or sign in once with 'opencode auth login' (saved in ${data}). Nothing was sent to a model.`,
    {details: {harness: 'opencode'}},
  );
}
