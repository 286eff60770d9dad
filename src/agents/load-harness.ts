/**
 * Loads a harness adapter on first execute. Adapters import their SDK (and its ~400 MB binary package) lazily,
 * so importing `@stratoscli/stratos` loads neither; a missing SDK is a clear error with the install command.
 */
import {StratosError} from '../errors/index.ts';
import type {AgentHarness} from './harness.ts';
import type {HarnessId} from './settings.ts';

const loaders: Record<HarnessId, () => Promise<AgentHarness>> = {
  'claude-code': async () => (await import('./harnesses/claude-code/index.ts')).claudeCodeHarness,
  codex: async () => (await import('./harnesses/codex/index.ts')).codexHarness,
};

export const harnessPackages: Record<HarnessId, string> = {
  'claude-code': '@anthropic-ai/claude-agent-sdk',
  codex: '@openai/codex-sdk',
};

export function loadHarness(id: HarnessId): Promise<AgentHarness> {
  return loaders[id]();
}

/** Imports a harness SDK; a missing package becomes STRATOS_AGENT_HARNESS_MISSING. */
export async function importHarnessSdk<T>(harness: HarnessId, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      const packageName = harnessPackages[harness];
      throw new StratosError(
        'STRATOS_AGENT_HARNESS_MISSING',
        `The ${harness} harness needs the package ${packageName}, which is not installed. Install it next to @stratoscli/stratos: 'npm install ${packageName}' (add -g when Stratos is installed globally).`,
        {cause: error, details: {harness, package: packageName, install: `npm install ${packageName}`}},
      );
    }
    throw error;
  }
}
