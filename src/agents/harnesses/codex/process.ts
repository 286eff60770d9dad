/**
 * The codex binary as Stratos starts it: found the way @openai/codex-sdk finds it (through @openai/codex), and
 * wrapped in a launcher script in the session's private folder that adds `--ignore-user-config` (no user
 * config.toml, so no user MCP servers, profiles or hooks; native login in CODEX_HOME still works) and, when
 * Stratos configures its own PreToolUse hook, `--dangerously-bypass-hook-trust`. The SDK starts one `codex exec`
 * per turn through it; no process lives between prompts.
 */
import {chmod, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {StratosError} from '../../../errors/index.ts';

/**
 * Writes the launcher into `directory` (the session's, mode 0700) and returns its path.
 * @param hookTrust Stratos's own hook command is configured (user configuration is ignored), so it needs no review
 * @throws StratosError STRATOS_AGENT_HARNESS_MISSING on a platform Codex has no binary for
 */
export async function writeCodexLauncher(directory: string, hookTrust: boolean): Promise<string> {
  const launcher = join(directory, 'codex');
  const trust = hookTrust ? ' --dangerously-bypass-hook-trust' : '';
  await writeFile(
    launcher,
    `#!/bin/sh\nsub="$1"; shift\nexec "${findCodexBinary()}" "$sub" --ignore-user-config${trust} "$@"\n`,
  );
  await chmod(launcher, 0o700);
  return launcher;
}

const platformPackages: Record<string, string> = {
  'linux-x64': '@openai/codex-linux-x64',
  'linux-arm64': '@openai/codex-linux-arm64',
  'darwin-x64': '@openai/codex-darwin-x64',
  'darwin-arm64': '@openai/codex-darwin-arm64',
};
const targets: Record<string, string> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

/** The native codex binary, found the way @openai/codex-sdk finds it (through @openai/codex). */
function findCodexBinary(): string {
  const key = `${process.platform}-${process.arch}`;
  const platformPackage = platformPackages[key];
  if (platformPackage === undefined)
    throw new StratosError(
      'STRATOS_AGENT_HARNESS_MISSING',
      `Codex has no binary for ${key}; it runs on ${Object.keys(platformPackages).join(', ')}. Use another harness on this machine.`,
      {details: {harness: 'codex', platform: key}},
    );
  const sdkRequire = createRequire(import.meta.resolve('@openai/codex-sdk'));
  const codexPackage = sdkRequire.resolve('@openai/codex/package.json');
  const codexRequire = createRequire(codexPackage);
  const platformJson = codexRequire.resolve(`${platformPackage}/package.json`);
  return join(dirname(platformJson), 'vendor', targets[key]!, 'bin', 'codex');
}
