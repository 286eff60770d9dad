/**
 * OpenCode's authentication for one provider, for readiness: OpenCode serves every provider, so a key for one
 * (OPENAI_API_KEY) is no authentication for another (Anthropic). A provider whose key variable Stratos knows is
 * authenticated by that variable or by its entry in OpenCode's login file (`opencode auth login`, auth.json in
 * OpenCode's data folder); any other provider by OpenCode's own harness-level check.
 */
import {readFile} from 'node:fs/promises';
import {homedir} from 'node:os';
import {join} from 'node:path';

/** The variables OpenCode reads a provider's key from, for the providers Stratos knows. */
const keyVariables: Readonly<Record<string, readonly string[]>> = {
  anthropic: ['ANTHROPIC_API_KEY'],
  openai: ['OPENAI_API_KEY'],
};

/** The providers whose OpenCode authentication Stratos can tell apart, in the order status lists them. */
export const openCodeKeyProviders: readonly string[] = Object.keys(keyVariables);

/** What sets up `provider` for OpenCode, as a sentence; undefined for a provider Stratos does not know. */
export function describeOpenCodeProviderSetup(provider: string): string | undefined {
  const variables = keyVariables[provider];
  if (variables === undefined) return undefined;
  return `OpenCode has no ${provider} authentication: set ${variables.join(' or ')}, or sign in once with 'opencode auth login' (saved in OpenCode's data folder). Nothing was sent to a model.`;
}

/** True or false for a known provider; undefined when OpenCode's harness-level check decides. */
export async function hasOpenCodeProviderAuthentication(
  env: Readonly<Record<string, string>>,
  provider: string,
): Promise<boolean | undefined> {
  const variables = keyVariables[provider];
  if (variables === undefined) return undefined;
  if (variables.some((name) => (env[name] ?? '') !== '')) return true;
  const data = join(env.XDG_DATA_HOME ?? join(env.HOME ?? homedir(), '.local', 'share'), 'opencode');
  try {
    const saved = JSON.parse(await readFile(join(data, 'auth.json'), 'utf8')) as unknown;
    return typeof saved === 'object' && saved !== null && provider in saved;
  } catch {
    return false;
  }
}
