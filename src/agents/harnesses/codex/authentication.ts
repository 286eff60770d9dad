/**
 * Codex authentication, checked before any work, in selection and by `stratos provider status`: an API key in the
 * environment (OPENAI_API_KEY or CODEX_API_KEY) or the native login of the codex binary (`codex login`, saved as
 * auth.json in CODEX_HOME or ~/.codex). The explicit Azure provider owns its authentication (its own key and base
 * URL, ./provider-setup.ts) and never falls back to an OpenAI key or login.
 */
import {readFile} from 'node:fs/promises';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {AuthenticationError} from '../../../errors/index.ts';
import {resolveCodexProvider} from './provider-setup.ts';

/** Throws AuthenticationError (STRATOS_AUTH_REQUIRED) when `provider` (OpenAI when undefined) is not set up. */
export async function checkCodexAuthentication(
  env: Readonly<Record<string, string>>,
  provider?: string,
): Promise<void> {
  if (provider === 'azure') {
    resolveCodexProvider('azure', env);
    return;
  }
  if ((env.OPENAI_API_KEY ?? '') !== '' || (env.CODEX_API_KEY ?? '') !== '') return;
  const home = env.CODEX_HOME ?? join(env.HOME ?? homedir(), '.codex');
  if (await hasCodexLogin(join(home, 'auth.json'))) return;
  throw new AuthenticationError(
    'STRATOS_AUTH_REQUIRED',
    `Codex has no authentication: set OPENAI_API_KEY, or sign in once with 'codex login' (native login in ${home}). Nothing was sent to a model.`,
    {details: {harness: 'codex'}},
  );
}

/**
 * `codex login` saves auth.json with the ChatGPT sign-in's `tokens`, or the key of `codex login --with-api-key` as
 * `OPENAI_API_KEY`; a file with neither (an empty or a hand-written one) is no login.
 */
async function hasCodexLogin(file: string): Promise<boolean> {
  try {
    const auth = JSON.parse(await readFile(file, 'utf8')) as {
      OPENAI_API_KEY?: unknown;
      tokens?: Record<string, unknown> | null;
    };
    const filled = (value: unknown) => typeof value === 'string' && value !== '';
    return (
      filled(auth?.OPENAI_API_KEY) ||
      filled(auth?.tokens?.access_token) ||
      filled(auth?.tokens?.refresh_token)
    );
  } catch {
    return false;
  }
}
