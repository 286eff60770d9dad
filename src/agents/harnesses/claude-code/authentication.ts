/**
 * Claude Code authentication, checked before any work: configured API credentials in the environment, a cloud
 * provider selection, or the native login of the claude binary (its credentials file, or the macOS keychain).
 * Claude Code itself would only end its turn with "not logged in" text, so Stratos checks first.
 */
import {access} from 'node:fs/promises';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {AuthenticationError} from '../../../errors/index.ts';

const credentialVariables = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'];
const providerSwitches = ['CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX', 'CLAUDE_CODE_USE_FOUNDRY'];

export async function checkClaudeAuthentication(env: Readonly<Record<string, string>>): Promise<void> {
  if (credentialVariables.some((name) => (env[name] ?? '') !== '')) return;
  if (providerSwitches.some((name) => env[name] === '1' || env[name] === 'true')) return;
  const configDir = env.CLAUDE_CONFIG_DIR ?? join(env.HOME ?? homedir(), '.claude');
  try {
    await access(join(configDir, '.credentials.json'));
    return;
  } catch {}
  if (process.platform === 'darwin' && (await hasKeychainLogin())) return;
  throw new AuthenticationError(
    'STRATOS_AUTH_REQUIRED',
    `Claude Code has no authentication: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or sign in once with 'claude' (native login in ${configDir}). Nothing was sent to a model.`,
    {details: {harness: 'claude-code'}},
  );
}

async function hasKeychainLogin(): Promise<boolean> {
  const {execFile} = await import('node:child_process');
  return new Promise((resolve) => {
    execFile('security', ['find-generic-password', '-s', 'Claude Code-credentials'], (error) =>
      resolve(error === null),
    );
  });
}
