/**
 * The one interface every harness adapter implements (design philosophy, "Share behavior without hiding native
 * differences"). The common runtime owns configuration, prompts, admission, validation, lifecycle and hooks;
 * an adapter translates them into native SDK operations. Adapters load their SDK only when a session starts.
 * Each adapter is one folder under `harnesses/` plus one record in `harnesses/registry.ts`.
 */
import type {AgentEvent, AgentHooks} from './harness-kit/hooks.ts';
import type {HarnessId} from './settings.ts';
import type {ToolSelection} from './tool-names.ts';

/** A selected MCP server with its references and auth headers resolved. The harness owns the connection. */
export type AgentMcpServer =
  | {name: string; type: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string}
  | {name: string; type: 'http'; url: string; headers: Record<string, string>};

export interface HarnessSessionOptions {
  agent: string;
  model?: string | undefined;
  /** The provider serving the model (`azure` for Codex); undefined for the harness's default provider. */
  provider?: string | undefined;
  effort?: string | undefined;
  systemPrompt?: string | undefined;
  /** Absolute; the process directory is never changed. */
  workingDirectory: string;
  mcpServers: AgentMcpServer[];
  tools: ToolSelection;
  /** JSON Schema of the output, when the agent has an output schema. */
  outputJsonSchema?: Record<string, unknown> | undefined;
  /** The complete environment of the harness process (the user's provider variables included). */
  env: Record<string, string>;
  hooks: AgentHooks;
  /** The agent's resolved settings, the fields only this harness takes (its record's `settings`) included. */
  settings?: Readonly<Record<string, unknown>>;
  /** Reports an observation; never awaited. */
  emit: (event: AgentEvent) => void;
  /**
   * A native conversation to continue instead of starting one (a resumed run's agent whose earlier turns were
   * replayed); only given to a harness whose `continuesConversations` is true.
   */
  resumeConversation?: string | undefined;
  /** What is left of the run's tightest USD budget as the session starts, for a harness with its own cap. */
  maxBudgetUsd?: number | undefined;
}

export interface HarnessTurnResult {
  text: string;
  /** Present only when the harness returned a native structured result. */
  structured?: {value: unknown};
}

export interface HarnessTurnOptions {
  signal: AbortSignal;
  /** The selected MCP servers as of this request (credentials refreshed between requests). */
  mcpServers: AgentMcpServer[];
}

/** One native conversation. `run` is never called twice at once (the agent object rejects overlaps). */
export interface HarnessSession {
  run(prompt: string, options: HarnessTurnOptions): Promise<HarnessTurnResult>;
  /** Ends the conversation and every process it started. Safe to call more than once. */
  close(): Promise<void>;
  /** The native conversation's identity (a thread or session id), journaled so a resumed run can continue it. */
  conversationId?(): string | undefined;
}

/**
 * An adapter. Its package, install command, effort levels, tool names and authentication check are in its record
 * of the harness registry (`harnesses/registry.ts`); the adapter itself only starts sessions.
 */
export interface AgentHarness {
  id: HarnessId;
  /** Whether a session can continue a journaled native conversation (`resumeConversation`). */
  continuesConversations?: boolean;
  createSession(options: HarnessSessionOptions): Promise<HarnessSession>;
}
