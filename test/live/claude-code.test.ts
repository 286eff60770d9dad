// Live: Claude Code against Anthropic, with ANTHROPIC_API_KEY or the developer's subscription login.
import {access} from 'node:fs/promises';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {defineLiveChecks} from './live-checks.ts';

const configDir = process.env.CLAUDE_CONFIG_DIR ?? join(process.env.HOME ?? homedir(), '.claude');
const loggedIn = await access(join(configDir, '.credentials.json')).then(
  () => true,
  () => false,
);

defineLiveChecks({
  label: 'claude-code (anthropic)',
  harness: 'claude-code',
  unavailable:
    (process.env.ANTHROPIC_API_KEY ?? '') !== '' || loggedIn
      ? undefined
      : `no Claude Code credentials: ANTHROPIC_API_KEY not set and no subscription login in ${configDir}`,
});
