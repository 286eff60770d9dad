/** The public types of the agent primitive: the agent object, its selection outcome and an inline configuration. */
import type {PromptReference, PromptVariables} from '../config/prompts.ts';
import type {AgentSettings, HarnessId, ResolvedAgentSettings} from './settings.ts';

/** One conversation with a harness. */
export interface Agent<Output = string> {
  /** The configuration name, or `agent` for an inline configuration. */
  readonly name: string;
  /** The resolved settings, fixed for the conversation. */
  readonly settings: Readonly<ResolvedAgentSettings>;
  /**
   * Sends the next user prompt and resolves with the answer: text, or the validated structured result when the
   * agent has an output schema. The first call starts the native session.
   * @throws StratosError STRATOS_AGENT_BUSY (another execute is running; only this call fails),
   *   STRATOS_PROMPT_* (before anything reaches a model), STRATOS_AGENT_ADMISSION_LIMIT,
   *   STRATOS_AGENT_HARNESS_MISSING, AuthenticationError STRATOS_AUTH_REQUIRED, STRATOS_AGENT_INIT_FAILED,
   *   AgentRunError (STRATOS_AGENT_RUN_FAILED, STRATOS_AGENT_CANCELLED, STRATOS_AGENT_HOOK_FAILED),
   *   STRATOS_AGENT_OUTPUT_MISSING, STRATOS_AGENT_OUTPUT_INVALID.
   */
  execute(prompt: PromptReference, variables?: PromptVariables): Promise<Output>;
  /** Signals the running execution to stop (synchronously); that execute rejects once it has stopped. */
  cancel(): void;
  /**
   * Which harness, provider and model the conversation runs on, and which candidates were skipped and why;
   * undefined until the first execute has started the native session.
   */
  readonly selection: AgentSelection | undefined;
}

/**
 * The outcome of harness and model selection for one agent (`agent.selection`), the same as its agent span and
 * `events.jsonl` record: the harness, provider and model the conversation runs on, and the candidates skipped.
 * @example
 * const reviewer = createAgent('reviewer');
 * await reviewer.execute('Review the diff.');
 * const {harness, model, skipped} = reviewer.selection!; // 'codex', 'gpt-5', [{reason: 'authentication-missing', ...}]
 */
export interface AgentSelection {
  harness: HarnessId;
  /** The provider serving the model (`anthropic`, `openai`, `azure`); undefined for the harness's default. */
  provider: string | undefined;
  /** The native model id the harness was given; undefined for the harness's default model. */
  model: string | undefined;
  /** The hosted identity the model was chosen for, with model preferences. */
  identity?: string;
  skipped: SelectionSkip[];
  /** Native sessions started for this agent so far (more than one only after a model rejection). */
  sessionsStarted: number;
}

/** A candidate selection did not use, and why. */
export interface SelectionSkip {
  harness: HarnessId;
  provider: string;
  /** The native model id (for OpenCode `<provider>/<id>`). */
  model: string;
  /** The hosted identity from the agent's `models`. */
  identity: string;
  /**
   * `harness-missing`: its SDK is not installed; `authentication-missing`: no API key or native login;
   * `model-unavailable`: a complete catalog does not list the model; `model-rejected`: the harness rejected the
   * model with structured evidence before any work, and its session was cleaned up.
   */
  reason: 'harness-missing' | 'authentication-missing' | 'model-unavailable' | 'model-rejected';
  /** A sentence saying why, for people (the evidence and HTTP status for a rejection). */
  detail: string;
}

/** An agent configuration given in code instead of a workflow.yaml name. */
export type AgentConfig<Output = string> = AgentSettings<Output> & {name?: string};
