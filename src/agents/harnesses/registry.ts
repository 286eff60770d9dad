/**
 * The harness registry: one record per harness, and the only list of them. Settings validation (`harness`,
 * `effort`), tool selection and `stratos tools list`, adapter loading, the missing-SDK error and the
 * authentication check all read these records, so adding a harness is one record here plus one adapter folder
 * (`harnesses/<id>/`: `index.ts` with the `AgentHarness`, `tools.ts` with its tool table, `authentication.ts`).
 *
 * Records hold plain data and lazy functions only: importing the registry loads no SDK, no adapter and no
 * `node:child_process` (the authoring entry imports it through createAgent).
 */
import type {AgentHarness} from '../harness.ts';
import type {HarnessToolCatalog} from '../tool-names.ts';
import {claudeCodeTools} from './claude-code/tools.ts';
import {codexTools} from './codex/tools.ts';
import {openCodeTools} from './opencode/tools.ts';

export interface HarnessRecord {
  /** The value of `harness:` in workflow.yaml and code settings. */
  readonly id: string;
  /** The product name used in messages. */
  readonly title: string;
  /** The optional peer dependency that brings the SDK (and, through it, the binary). */
  readonly sdkPackage: string;
  /** What a user runs to install it, next to @stratoscli/stratos. */
  readonly install: string;
  /** The `effort` values the harness accepts. */
  readonly effortLevels: readonly string[];
  /**
   * The providers an explicit `provider:` may name for this harness; the first is its default. Empty: any provider
   * (OpenCode serves each model through the provider its identity names).
   */
  readonly providers: readonly string[];
  /**
   * Local providers it can run on (`ollama`): named only with this harness set explicitly, never chosen by model
   * preferences, and served from the user's own server with no hosted credentials.
   */
  readonly localProviders: readonly string[];
  /** Canonical and native built-in tool names. */
  readonly tools: HarnessToolCatalog;
  /** Imports the adapter (and through it, lazily, the SDK). */
  readonly load: () => Promise<AgentHarness>;
  /**
   * Throws AuthenticationError when neither configured credentials nor a native login is available; runs before
   * any work starts.
   */
  readonly checkAuthentication: (env: Readonly<Record<string, string>>) => Promise<void>;
}

/** Every harness with an adapter, in the order messages and `stratos tools list` show them. */
export const harnessRecords = [
  {
    id: 'claude-code',
    title: 'Claude Code',
    sdkPackage: '@anthropic-ai/claude-agent-sdk',
    install: 'npm install @anthropic-ai/claude-agent-sdk',
    effortLevels: ['low', 'medium', 'high', 'xhigh', 'max'],
    providers: ['anthropic'],
    localProviders: [],
    tools: claudeCodeTools,
    load: async () => (await import('./claude-code/index.ts')).claudeCodeHarness,
    checkAuthentication: async (env) =>
      (await import('./claude-code/authentication.ts')).checkClaudeAuthentication(env),
  },
  {
    id: 'codex',
    title: 'Codex',
    sdkPackage: '@openai/codex-sdk',
    install: 'npm install @openai/codex-sdk',
    effortLevels: ['minimal', 'low', 'medium', 'high', 'xhigh'],
    providers: ['openai', 'azure'],
    localProviders: ['ollama'],
    tools: codexTools,
    load: async () => (await import('./codex/index.ts')).codexHarness,
    checkAuthentication: async (env) =>
      (await import('./codex/authentication.ts')).checkCodexAuthentication(env),
  },
  {
    id: 'opencode',
    title: 'OpenCode',
    sdkPackage: '@opencode-ai/sdk',
    install: 'npm install @opencode-ai/sdk opencode-ai',
    // OpenCode's variant names across its providers (`opencode models <provider> --verbose`, opencode-ai 1.18):
    // OpenAI none..xhigh and max, Anthropic low..max, Google minimal..high. Each model defines its own subset.
    effortLevels: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'],
    providers: [],
    localProviders: ['ollama'],
    tools: openCodeTools,
    load: async () => (await import('./opencode/index.ts')).openCodeHarness,
    checkAuthentication: async (env) =>
      (await import('./opencode/authentication.ts')).checkOpenCodeAuthentication(env),
  },
] as const satisfies readonly HarnessRecord[];

/** A harness id: `claude-code`, `codex`, ... (one per registry record). */
export type HarnessId = (typeof harnessRecords)[number]['id'];

/** The ids of every record, in registry order. */
export const harnessIds: readonly HarnessId[] = harnessRecords.map((record) => record.id);

/** Whether `value` names a registered harness. */
export function isHarnessId(value: unknown): value is HarnessId {
  return harnessRecords.some((record) => record.id === value);
}

/** The record of a registered harness (ids are checked by settings validation before this is called). */
export function findHarness(id: HarnessId): HarnessRecord {
  const record = harnessRecords.find((candidate) => candidate.id === id);
  if (record === undefined) throw new TypeError(`No harness '${id}' is registered.`);
  return record;
}
