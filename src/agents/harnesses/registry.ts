/**
 * The harness registry: one record per harness, and the only list of them. Settings validation (`harness`,
 * `effort`, `provider`), the default harness, candidate planning (which creators' models a harness serves, its
 * default provider, native model ids), readiness, tool selection and `stratos tools list`, adapter loading, the
 * missing-SDK error, the authentication check (start-up, selection and `stratos provider status`) all read these
 * records, so adding a harness is one record here plus one adapter folder (`harnesses/<id>/`: `index.ts` with the
 * `AgentHarness`, `tools.ts` with its tool table, `sdk.ts` with its SDK package, `authentication.ts`). No code
 * outside the two names a harness.
 *
 * Records hold plain data and lazy functions only: importing the registry loads no SDK, no adapter and no
 * `node:child_process` (the authoring entry imports it through createAgent).
 */
import type {AgentHarness} from '../harness.ts';
import type {HarnessToolCatalog} from '../tool-names.ts';
import {acpSdk} from './acp/sdk.ts';
import {acpSettings} from './acp/settings.ts';
import {acpTools} from './acp/tools.ts';
import {claudeCodeSdk} from './claude-code/sdk.ts';
import {claudeCodeTools} from './claude-code/tools.ts';
import {codexSdk} from './codex/sdk.ts';
import {codexTools} from './codex/tools.ts';
import {openCodeKeyProviders} from './opencode/provider-keys.ts';
import {openCodeSdk} from './opencode/sdk.ts';
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
   * The providers whose authentication is their own rather than the harness's (Codex's Azure: its own key and base
   * URL; OpenCode: each provider's key or login). `stratos provider status` lists them with their own state.
   */
  readonly providerAuthentication: readonly string[];
  /**
   * Whose models selection tries on this harness when no harness is set: creator names (`anthropic`) in a first
   * pass, each preference on its creator's harness; `any`: every creator's models, in a second pass.
   */
  readonly creators: readonly string[] | 'any';
  /** The provider that serves a model of `creator` without an explicit provider. */
  readonly defaultProvider: (creator: string) => string;
  /** The model id the harness expects, from the provider and its native model id (OpenCode: `<provider>/<id>`). */
  readonly modelId: (provider: string, native: string) => string;
  /** The id the provider's own catalog lists for a harness model id (the inverse of `modelId`). */
  readonly catalogModelId: (provider: string, model: string) => string;
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
   * The one authentication check: throws AuthenticationError (STRATOS_AUTH_REQUIRED) when `provider` (the harness's
   * default when undefined) has neither configured credentials nor a native login. Runs before any work starts,
   * for every candidate in selection, and for `stratos provider status`.
   */
  readonly checkAuthentication: (env: Readonly<Record<string, string>>, provider?: string) => Promise<void>;
  /**
   * Settings only this harness takes (ACP: the agent process's `command`, `args` and `env`), with their check.
   * Validation accepts these fields only with this harness set explicitly and passes the whole agent to `validate`;
   * the adapter reads them from its session options' `settings`.
   */
  readonly settings?: HarnessSettings;
  /**
   * For a harness whose agents each name their own program (ACP): starts one configured agent's program, asks what
   * it is and supports, and stops it, for `stratos provider status`. Never throws.
   */
  readonly probeAgent?: (
    settings: Readonly<Record<string, unknown>>,
    env: Readonly<Record<string, string>>,
    cwd: string,
  ) => Promise<HarnessAgentProbe>;
}

/** What a configured agent's program answered (see {@link HarnessRecord.probeAgent}). */
export type HarnessAgentProbe = {
  command: string;
  /** The program started. */
  installed: boolean;
  /** It answered the harness's handshake. */
  answered: boolean;
  /** Why it did not answer. */
  error?: string;
  [detail: string]: unknown;
};

/** The settings of a harness beyond the common ones (see {@link HarnessRecord.settings}). */
export interface HarnessSettings {
  /** The field names, as workflow.yaml and createAgent write them. */
  readonly fields: readonly string[];
  /**
   * Every problem of an agent set to this harness (never throws): each with its code, the field it is about and a
   * whole sentence that names the agent (`name`) and says the fix.
   */
  readonly validate: (
    settings: Readonly<Record<string, unknown>>,
    name: string,
    source: string,
  ) => {code: 'STRATOS_AGENT_CONFIG_INVALID'; field: string; message: string}[];
}

/** Every harness with an adapter, in the order messages and `stratos tools list` show them. */
export const harnessRecords = [
  {
    id: 'claude-code',
    ...claudeCodeSdk,
    effortLevels: ['low', 'medium', 'high', 'xhigh', 'max'],
    providers: ['anthropic'],
    providerAuthentication: [],
    localProviders: [],
    creators: ['anthropic'],
    defaultProvider: () => 'anthropic',
    modelId: (_provider, native) => native,
    catalogModelId: (_provider, model) => model,
    tools: claudeCodeTools,
    load: async () => (await import('./claude-code/index.ts')).claudeCodeHarness,
    checkAuthentication: async (env) =>
      (await import('./claude-code/authentication.ts')).checkClaudeAuthentication(env),
  },
  {
    id: 'codex',
    ...codexSdk,
    effortLevels: ['minimal', 'low', 'medium', 'high', 'xhigh'],
    providers: ['openai', 'azure'],
    providerAuthentication: ['azure'],
    localProviders: ['ollama'],
    creators: ['openai'],
    defaultProvider: () => 'openai',
    modelId: (_provider, native) => native,
    catalogModelId: (_provider, model) => model,
    tools: codexTools,
    load: async () => (await import('./codex/index.ts')).codexHarness,
    checkAuthentication: async (env, provider) =>
      (await import('./codex/authentication.ts')).checkCodexAuthentication(env, provider),
  },
  {
    id: 'opencode',
    ...openCodeSdk,
    // OpenCode's variant names across its providers (`opencode models <provider> --verbose`, opencode-ai 1.18):
    // OpenAI none..xhigh and max, Anthropic low..max, Google minimal..high. Each model defines its own subset.
    effortLevels: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'],
    providers: [],
    providerAuthentication: openCodeKeyProviders,
    localProviders: ['ollama'],
    creators: 'any',
    defaultProvider: (creator) => creator,
    modelId: (provider, native) => `${provider}/${native}`,
    catalogModelId: (provider, model) => model.slice(provider.length + 1),
    tools: openCodeTools,
    load: async () => (await import('./opencode/index.ts')).openCodeHarness,
    checkAuthentication: async (env, provider) =>
      (await import('./opencode/authentication.ts')).checkOpenCodeAuthentication(env, provider),
  },
  {
    id: 'acp',
    ...acpSdk,
    // An ACP agent owns its model and reasoning settings; `model` is set only where the agent offers a choice.
    effortLevels: [],
    providers: [],
    providerAuthentication: [],
    localProviders: [],
    // Never chosen by model preferences: an ACP agent is an explicit harness (no fallback into or out of it).
    creators: [],
    defaultProvider: () => 'acp',
    modelId: (_provider, native) => native,
    catalogModelId: (_provider, model) => model,
    tools: acpTools,
    load: async () => (await import('./acp/index.ts')).acpHarness,
    // The agent process signs in its own way; `stratos provider status` asks the agent itself (initialize).
    checkAuthentication: async () => {},
    settings: acpSettings,
    probeAgent: async (settings, env, cwd) =>
      (await import('./acp/probe-agent.ts')).probeAcpAgent(settings, env, cwd),
  },
] as const satisfies readonly HarnessRecord[];

/** A harness id: `claude-code`, `codex`, ... (one per registry record). */
export type HarnessId = (typeof harnessRecords)[number]['id'];

/** The harness of an agent that sets neither `harness` nor `models`. */
export const defaultHarnessId: HarnessId = 'claude-code';

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

/** Whether the harness's SDK package resolves from Stratos's own location, where the adapter would load it. */
export function isHarnessInstalled(record: HarnessRecord): boolean {
  try {
    import.meta.resolve(record.sdkPackage);
    return true;
  } catch {
    return false;
  }
}
