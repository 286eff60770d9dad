/**
 * One Codex conversation. Codex keeps conversation identity across native turns: each turn is one `codex exec` of
 * the same thread (resumed by id), so no process lives between prompts. A turn streams the thread's events
 * (./translate-events.ts); cancelling aborts it; a failing control hook (the MCP hook bridge or ./tool-hooks.ts)
 * aborts it and the turn fails with the hook's failure; closing ends the bridge and the tool hook and removes the
 * session's folders. Native options: ./native-options.ts.
 */
import {rm} from 'node:fs/promises';
import type {Thread} from '@openai/codex-sdk';
import {AgentRunError} from '../../../errors/index.ts';
import type {
  AgentMcpServer,
  HarnessSession,
  HarnessSessionOptions,
  HarnessTurnOptions,
  HarnessTurnResult,
} from '../../harness.ts';
import type {HookFailure} from '../../harness-kit/hooks.ts';
import {type CodexSessionParts, toCodexOptions, toThreadOptions} from './native-options.ts';
import type {CodexToolHook} from './tool-hooks.ts';
import {parseStructured, toMcpStartupError, translateThreadEvent} from './translate-events.ts';

export type CodexModule = typeof import('@openai/codex-sdk');

/** What the session owns and ends at close. */
export interface CodexSessionResources extends CodexSessionParts {
  /** The session's private folder (the launcher, the hook command). */
  directory: string;
  toolHook: CodexToolHook | undefined;
}

export class CodexSession implements HarnessSession {
  #sdk: CodexModule;
  #options: HarnessSessionOptions;
  #resources: CodexSessionResources;
  #thread: Thread;
  #mcpJson: string;
  #closed = false;
  #running: AbortController | undefined;
  /** The first control hook that threw during the running turn: the turn is aborted and fails with it. */
  #hookFailure: HookFailure | undefined;

  constructor(sdk: CodexModule, options: HarnessSessionOptions, resources: CodexSessionResources) {
    this.#sdk = sdk;
    this.#options = options;
    this.#resources = resources;
    this.#mcpJson = JSON.stringify(options.mcpServers);
    const codex = this.#codex(options.mcpServers);
    this.#thread =
      options.resumeConversation === undefined
        ? codex.startThread(toThreadOptions(options))
        : codex.resumeThread(options.resumeConversation, toThreadOptions(options));
  }

  conversationId(): string | undefined {
    return this.#thread.id ?? undefined;
  }

  /** A control hook threw: stop the running turn; `run` rejects with the hook failure. */
  failTurn(failure: HookFailure): void {
    const running = this.#running;
    if (running === undefined || this.#hookFailure !== undefined) return;
    this.#hookFailure = failure;
    running.abort(failure);
  }

  #codex(mcpServers: readonly AgentMcpServer[]): InstanceType<CodexModule['Codex']> {
    return new this.#sdk.Codex(toCodexOptions(this.#options, this.#resources, mcpServers));
  }

  async run(prompt: string, options: HarnessTurnOptions): Promise<HarnessTurnResult> {
    if (this.#closed)
      throw new AgentRunError('the Codex conversation was closed; create a new agent to go on.', {
        agent: this.#options.agent,
        harness: 'codex',
      });
    const mcpJson = JSON.stringify(options.mcpServers);
    const bridge = this.#resources.bridge;
    if (bridge !== undefined) {
      // Codex keeps talking to the same bridge URLs; only the bridge's upstream connections change.
      await bridge.update(options.mcpServers);
    } else if (mcpJson !== this.#mcpJson && this.#thread.id !== null) {
      // Credentials changed between requests: the next turn resumes the same thread with the new configuration.
      this.#thread = this.#codex(options.mcpServers).resumeThread(
        this.#thread.id,
        toThreadOptions(this.#options),
      );
      this.#mcpJson = mcpJson;
    }
    const controller = new AbortController();
    this.#running = controller;
    this.#hookFailure = undefined;
    const onAbort = () => controller.abort(options.signal.reason);
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, {once: true});
    try {
      const schema = this.#options.outputJsonSchema;
      const turnOptions = {
        signal: controller.signal,
        ...(schema === undefined ? {} : {outputSchema: schema}),
      };
      const {events} = await this.#thread.runStreamed(prompt, turnOptions);
      let text = '';
      let failure: string | undefined;
      for await (const event of events) {
        const translated = translateThreadEvent(event);
        for (const observation of translated.events) this.#options.emit(observation);
        if (translated.text !== undefined) text = translated.text;
        if (translated.failure !== undefined) failure = translated.failure;
      }
      if (this.#hookFailure !== undefined) throw this.#hookFailure;
      if (failure !== undefined)
        throw new AgentRunError(`Codex failed the turn: ${failure}`, {
          agent: this.#options.agent,
          harness: 'codex',
        });
      return schema === undefined ? {text} : parseStructured(text);
    } catch (error) {
      if (options.signal.aborted) throw options.signal.reason;
      if (this.#hookFailure !== undefined) throw this.#hookFailure;
      throw toMcpStartupError(error, this.#options.agent) ?? error;
    } finally {
      options.signal.removeEventListener('abort', onAbort);
      this.#running = undefined;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#running?.abort(
      new AgentRunError('the Codex conversation was closed while a turn ran.', {
        agent: this.#options.agent,
        harness: 'codex',
        cancelled: true,
      }),
    );
    await closeCodexResources(this.#resources);
  }
}

/** Ends what a session started (also when starting it failed half-way). */
export async function closeCodexResources(resources: Partial<CodexSessionResources>): Promise<void> {
  await resources.bridge?.close();
  await resources.toolHook?.close();
  if (resources.directory !== undefined) await rm(resources.directory, {recursive: true, force: true});
  if (resources.isolatedHome !== undefined) await rm(resources.isolatedHome, {recursive: true, force: true});
}
