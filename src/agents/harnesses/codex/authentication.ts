/**
 * Codex authentication, checked before any work: an API key in the environment (OPENAI_API_KEY or CODEX_API_KEY)
 * or the native login of the codex binary (`codex login`, saved as auth.json in CODEX_HOME or ~/.codex).
 */
import {access} from 'node:fs/promises';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {AuthenticationError} from '../../../errors/index.ts';

export async function checkCodexAuthentication(env: Readonly<Record<string, string>>): Promise<void> {
  if ((env.OPENAI_API_KEY ?? '') !== '' || (env.CODEX_API_KEY ?? '') !== '') return;
  const home = env.CODEX_HOME ?? join(env.HOME ?? homedir(), '.codex');
  try {
    await access(join(home, 'auth.json'));
    return;
  } catch {}
  throw new AuthenticationError(
    'STRATOS_AUTH_REQUIRED',
    `Codex has no authentication: set OPENAI_API_KEY, or sign in once with 'codex login' (native login in ${home}). Nothing was sent to a model.`,
    {details: {harness: 'codex'}},
  );
}
