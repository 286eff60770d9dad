/**
 * Claude Code authentication, checked before any work: configured API credentials in the environment, a cloud
 * provider selection, or the native login of the claude binary (its credentials file holding a subscription login,
 * or the macOS keychain).
 * Claude Code itself would only end its turn with "not logged in" text, so Stratos checks first.
 */
import {readFile} from 'node:fs/promises';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {AuthenticationError} from '../../../errors/index.ts';

const credentialVariables = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'];
const providerSwitches = ['CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX', 'CLAUDE_CODE_USE_FOUNDRY'];

export async function checkClaudeAuthentication(env: Readonly<Record<string, string>>): Promise<void> {
  if (credentialVariables.some((name) => (env[name] ?? '') !== '')) return;
  if (providerSwitches.some((name) => env[name] === '1' || env[name] === 'true')) return;
  const configDir = env.CLAUDE_CONFIG_DIR ?? join(env.HOME ?? homedir(), '.claude');
  if (await hasSubscriptionLogin(join(configDir, '.credentials.json'))) return;
  if (process.platform === 'darwin' && (await hasKeychainLogin())) return;
  throw new AuthenticationError(
    'STRATOS_AUTH_REQUIRED',
    `Claude Code has no authentication: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or sign in once with 'claude' (native login in ${configDir}). Nothing was sent to a model.`,
    {details: {harness: 'claude-code'}},
  );
}

/**
 * `claude` keeps its subscription login as `claudeAiOauth` in `.credentials.json`; the same file also holds other
 * credentials (the OAuth tokens of MCP servers, `mcpOAuth`) and stays behind after a logout, so its mere presence
 * proves no login.
 */
async function hasSubscriptionLogin(file: string): Promise<boolean> {
  try {
    const login = (JSON.parse(await readFile(file, 'utf8')) as {claudeAiOauth?: Record<string, unknown>})
      ?.claudeAiOauth;
    return [login?.accessToken, login?.refreshToken].some(
      (token) => typeof token === 'string' && token !== '',
    );
  } catch {
    return false;
  }
}

async function hasKeychainLogin(): Promise<boolean> {
  const {execFile} = await import('node:child_process');
  return new Promise((resolve) => {
    execFile('security', ['find-generic-password', '-s', 'Claude Code-credentials'], (error) =>
      resolve(error === null),
    );
  });
}
