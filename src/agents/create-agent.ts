/**
 * The agent primitive (design philosophy, "Make conversation ownership explicit"): one object is one conversation
 * of one workflow invocation. createAgent resolves and fixes its settings and registers it with the invocation;
 * the first execute initializes native resources; later calls continue the conversation.
 */
import {relative, resolve} from 'node:path';
import {z} from 'zod';
import {type PromptReference, type PromptVariables, resolvePrompt} from '../config/prompts.ts';
import {
  type AcquiredWorktree,
  type ExecutionContext,
  requireExecutionContext,
} from '../context/execution-context.ts';
import type {ScriptedAgentAnswer} from '../context/scripted-answers.ts';
import {type OpenedStep, openStep} from '../context/step-seam.ts';
import {AgentRunError, isStratosError, StratosError} from '../errors/index.ts';
import type {OperationScope} from '../telemetry/index.ts';
import {describeAgentConfiguration, describeAgentSession} from './agent-attributes.ts';
import {refreshAgentMcpServers} from './agent-mcp-servers.ts';
import {
  checkConversationContinuation,
  describeJournaledTurn,
  type JournaledConversation,
  readJournaledConversation,
  replayAgentTurn,
} from './agent-resume.ts';
import {assertHookCoverage} from './check-hook-coverage.ts';
import type {AgentHarness, HarnessSession} from './harness.ts';
import {createHarnessEnvironment} from './harness-kit/agent-environment.ts';
import {HookFailure} from './harness-kit/hooks.ts';
import {ModelUnavailableError} from './harness-kit/model-unavailable-error.ts';
import {findHarness} from './harnesses/registry.ts';
import {loadHarness, preloadHarnessSdk} from './load-harness.ts';
import type {ReadyCandidate} from './selection/check-readiness.ts';
import {
  createSessionMarker,
  findSurvivingSessionProcesses,
  sessionMarkerVariable,
} from './selection/find-session-processes.ts';
import {prepareCandidates} from './selection/prepare-candidates.ts';
import {
  type AgentSettings,
  type HarnessId,
  type ResolvedAgentSettings,
  resolveAgentSettings,
} from './settings.ts';
import {SpawnedWorkTelemetry} from './spawned-work-telemetry.ts';
import {resolveToolSelection, type ToolSelection} from './tool-names.ts';
import {TurnTelemetry} from './turn-telemetry.ts';

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

/**
 * Creates an agent from a workflow.yaml configuration name or an inline configuration. Settings resolve field by
 * field: `settings` (code), then the invocation's overrides, then workflow.yaml, then the defaults.
 * @throws StratosError STRATOS_RUNTIME_NO_CONTEXT, STRATOS_AGENT_CONFIG_UNKNOWN, STRATOS_AGENT_CONFIG_INVALID,
 *   STRATOS_AGENT_MCP_UNKNOWN, STRATOS_AGENT_TOOL_UNKNOWN.
 * @example
 * const reviewer = createAgent('reviewer', {outputSchema: z.object({approve: z.boolean().describe('')})});
 * const {approve} = await reviewer.execute({template: 'prompts/review.hbs'}, {diff});
 */
export function createAgent<Output = string>(
  nameOrConfig: string | AgentConfig<Output>,
  settings?: AgentSettings<Output>,
): Agent<Output> {
  const context = requireExecutionContext('createAgent()');
  const manifest = context.workflow.manifest;
  const named = typeof nameOrConfig === 'string';
  const name = named ? nameOrConfig : (nameOrConfig.name ?? 'agent');
  const configured = named ? manifest.agents?.[name] : undefined;
  if (named && configured === undefined) {
    const known = Object.keys(manifest.agents ?? {});
    throw new StratosError(
      'STRATOS_AGENT_CONFIG_UNKNOWN',
      `Workflow '${context.workflow.name}' has no agent configuration '${name}' in workflow.yaml${known.length > 0 ? `; it declares ${known.map((k) => `'${k}'`).join(', ')}` : ''}. Add agents.${name} or pass an inline configuration.`,
      {details: {agent: name, known}},
    );
  }
  const inline = named ? undefined : withoutName(nameOrConfig);
  const resolved = resolveAgentSettings({
    name,
    layers: [
      {
        source: `createAgent('${name}') settings`,
        settings: settings as Record<string, unknown> | undefined,
        codeFields: true,
      },
      {source: `createAgent('${name}') configuration`, settings: inline, codeFields: true},
      {
        source: `overrides.agents.${name}`,
        settings: named ? context.overrides.agents?.[name] : undefined,
        codeFields: false,
      },
      {source: `workflow.yaml agents.${name}`, settings: configured, codeFields: false},
    ],
    mcpServers: Object.keys(manifest.mcp?.servers ?? {}),
    resolvePath: (path) => resolve(context.invocationDirectory, path),
    invocationDirectory: context.invocationDirectory,
  });
  // With model preferences and no explicit harness, tools are resolved for the harness selection picks.
  const tools = resolved.harnessSelected
    ? undefined
    : resolveToolSelection(resolved.harness, resolved.allowedTools, resolved.disallowedTools, name);
  const code = {...inline, ...definedOnly(settings ?? {})} as AgentSettings<Output>;
  if (tools !== undefined) assertHookCoverage(name, resolved.harness, tools, code.hooks);
  return new AgentSession<Output>(context, name, resolved, tools, code);
}

function withoutName<T extends {name?: string}>(config: T): Record<string, unknown> {
  const {name: _name, ...rest} = config;
  return rest;
}

function definedOnly(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined));
}

type State = 'new' | 'ready' | 'closed';

type TurnResult = Awaited<ReturnType<HarnessSession['run']>>;

/**
 * A scripted answer as a harness result. A structured value given to a text agent is its JSON text, so a case
 * recorded from a run (where the two look alike) replays either way.
 */
function scriptedResult(answer: ScriptedAgentAnswer, structured: boolean): TurnResult {
  if (answer.text !== undefined) return {text: answer.text};
  const text = typeof answer.value === 'string' ? answer.value : JSON.stringify(answer.value);
  return structured ? {text, structured: {value: answer.value}} : {text};
}

class AgentSession<Output> implements Agent<Output> {
  readonly name: string;
  readonly settings: Readonly<ResolvedAgentSettings>;
  #context: ExecutionContext;
  #tools: ToolSelection | undefined;
  /** The harness, provider and model this conversation runs on (selection's choice, or the fixed settings). */
  #current: {harness: HarnessId; model: string | undefined; provider: string | undefined; identity?: string};
  /** Ready candidates not yet tried (model preferences only); the first is the current one. */
  #candidates: ReadyCandidate[] | undefined;
  #skipped: SelectionSkip[] = [];
  #sessionsStarted = 0;
  /** With model preferences: the marker every process of the current native session carries. */
  #sessionMarker: string | undefined;
  /** Set after the first turn that got past selection: from then on the selection is fixed. */
  #established = false;
  #code: AgentSettings<Output>;
  #state: State = 'new';
  #harness: AgentHarness | undefined;
  #session: HarnessSession | undefined;
  /** Resume: the native conversation of the last replayed turn, continued by the next session. */
  #resumeFrom: JournaledConversation | undefined;
  #running: {controller: AbortController; done: Promise<unknown>} | undefined;
  /** Records the running turn's harness observations under its agent span. */
  #observer: TurnTelemetry | undefined;
  /** Sub-agent and background-task work, recorded where it began even when it is reported after its turn. */
  #spawned = new SpawnedWorkTelemetry();
  #worktree: AcquiredWorktree | undefined;
  /** The system prompt the native session was started with (the worktree notice included). */
  #systemPrompt: string | undefined;
  #unregister: () => void;

  constructor(
    context: ExecutionContext,
    name: string,
    settings: ResolvedAgentSettings,
    tools: ToolSelection | undefined,
    code: AgentSettings<Output>,
  ) {
    this.name = name;
    this.settings = Object.freeze(settings);
    this.#current = {harness: settings.harness, model: settings.model, provider: settings.provider};
    this.#context = context;
    this.#tools = tools;
    this.#code = code;
    // Registered before lazy initialization, so a half-started session is still cleaned up with the invocation.
    this.#unregister = context.resources.register({label: `agent:${name}`, close: () => this.#close()});
  }

  /** The harness the conversation runs on (selection's choice once made). */
  get harness(): HarnessId {
    return this.#current.harness;
  }

  get selection(): AgentSelection | undefined {
    if (this.#sessionsStarted === 0) return undefined;
    return {
      harness: this.#current.harness,
      provider: this.#current.provider,
      model: this.#current.model,
      ...(this.#current.identity === undefined ? {} : {identity: this.#current.identity}),
      skipped: [...this.#skipped],
      sessionsStarted: this.#sessionsStarted,
    };
  }

  cancel(): void {
    this.#running?.controller.abort(
      new AgentRunError('the execution was cancelled.', {
        agent: this.name,
        harness: this.#current.harness,
        cancelled: true,
      }),
    );
  }

  execute(prompt: PromptReference, variables?: PromptVariables): Promise<Output> {
    if (this.#running !== undefined) {
      return Promise.reject(
        new StratosError(
          'STRATOS_AGENT_BUSY',
          `Agent '${this.name}' is still executing; one agent is one conversation and takes one prompt at a time. Await the running execute, or create another agent for independent work.`,
          {details: {agent: this.name}},
        ),
      );
    }
    if (this.#state === 'closed' || this.#context.resources.closed) {
      return Promise.reject(
        new StratosError(
          'STRATOS_RUNTIME_CONTEXT_CLOSED',
          `Agent '${this.name}' was used after workflow '${this.#context.workflow.name}' ended. Await all agent work inside run.`,
        ),
      );
    }
    // The step is keyed now, in call order, so parallel executes keep their places in the journal.
    const step = openStep(this.#context, {kind: 'agent', name: this.name, arguments: {prompt, variables}});
    const controller = new AbortController();
    const invocation = this.#context.abortController.signal;
    const onInvocationAbort = () =>
      controller.abort(
        new AgentRunError('the invocation ended or failed, so its agent executions were cancelled.', {
          agent: this.name,
          harness: this.#current.harness,
          cancelled: true,
          cause: invocation.reason,
        }),
      );
    if (invocation.aborted) onInvocationAbort();
    else invocation.addEventListener('abort', onInvocationAbort, {once: true});
    const done = this.#context.telemetry
      .operation(
        {
          kind: 'agent.execute',
          name: `agent ${this.name}`,
          attributes: describeAgentConfiguration({
            name: this.name,
            settings: this.settings,
            target: this.settings.harnessSelected && this.#sessionsStarted === 0 ? undefined : this.#current,
            tools: this.#tools,
            structured: this.#code.outputSchema !== undefined,
          }),
        },
        (scope) => this.#execute(prompt, variables, controller.signal, scope, step),
      )
      .finally(() => {
        invocation.removeEventListener('abort', onInvocationAbort);
        this.#running = undefined;
      });
    this.#running = {controller, done};
    return done;
  }

  async #execute(
    prompt: PromptReference,
    variables: PromptVariables | undefined,
    signal: AbortSignal,
    scope: OperationScope,
    step: OpenedStep,
  ): Promise<Output> {
    const workflow = this.#context.workflow;
    // The prompt renders first: a missing variable fails before admission, initialization or any request.
    const text = await resolvePrompt(prompt, {
      directory: workflow.directory,
      variables,
      field: `prompt of agent '${this.name}'`,
    });
    // Resume: a journaled turn is its recorded answer; the next live turn continues its native conversation.
    if (step.recorded !== undefined) {
      this.#resumeFrom = readJournaledConversation(step.recorded);
      return replayAgentTurn(step.recorded, scope) as Output;
    }
    // `stratos test`: a scripted reply replaces admission and the harness; hooks and validation still run.
    const scripted = this.#context.scripts?.agent({workflow: workflow.name, agent: this.name, prompt: text});
    const release =
      scripted === undefined
        ? await this.#context.admission.acquire(`Agent '${this.name}'`, signal)
        : () => {};
    const lifecycle = {agent: this.name, harness: this.#current.harness, prompt: text};
    const hooks = this.#code.hooks ?? {};
    try {
      if (hooks.onStart !== undefined)
        await runLifecycleHook('onStart', () => hooks.onStart!(lifecycle), this);
      const output =
        scripted === undefined
          ? await this.#turn(text, signal, scope)
          : await this.#scriptedTurn(text, scripted, scope);
      if (scripted === undefined) {
        const conversation = this.#session?.conversationId?.();
        await step.complete(
          {value: output},
          describeJournaledTurn(text, this.#current.harness, conversation),
        );
      }
      if (hooks.onComplete !== undefined)
        await runLifecycleHook('onComplete', () => hooks.onComplete!({...lifecycle, output}), this);
      return output;
    } catch (error) {
      if (hooks.onError !== undefined) {
        try {
          await hooks.onError({...lifecycle, error});
        } catch (hookError) {
          // Both are kept: the original failure stays the error, the reporting failure rides along.
          throw new AgentRunError(
            `the onError hook threw while reporting a failure: ${messageOf(hookError)}`,
            {
              code: 'STRATOS_AGENT_HOOK_FAILED',
              agent: this.name,
              harness: this.#current.harness,
              cause: new AggregateError([error, hookError], 'execution failure and onError hook failure'),
            },
          );
        }
      }
      throw error;
    } finally {
      release();
    }
  }

  /** One turn; on the first, a structured model rejection moves to the next prepared candidate. */
  async #runTurn(
    text: string,
    signal: AbortSignal,
    scope: OperationScope,
  ): Promise<Awaited<ReturnType<HarnessSession['run']>>> {
    const workflow = this.#context.workflow;
    for (;;) {
      // Start-up (loading the SDK, authentication, starting the native session) is its own span, apart from turns.
      const session =
        this.#session ??
        (await this.#context.telemetry.operation(
          {
            kind: 'agent.start',
            name: `start ${this.#current.harness}`,
            attributes: {'stratos.agent.harness': this.#current.harness},
          },
          () => this.#initialize(signal, scope),
        ));
      signal.throwIfAborted();
      scope.setAttributes({
        ...describeAgentSession({systemPrompt: this.#systemPrompt, worktree: this.#worktree}),
        'stratos.agent.removed_tools': this.#tools === undefined ? undefined : [...this.#tools.removed],
      });
      const mcpServers = await refreshAgentMcpServers({
        workflow: workflow.name,
        directory: workflow.directory,
        servers: workflow.manifest.mcp?.servers ?? {},
        selected: this.settings.allowedMcps,
      });
      // Model and tool calls are recorded as the harness reports them, siblings under this execute's agent span;
      // the turn as a whole is not a model call (it includes the tool calls).
      this.#observer = new TurnTelemetry(scope, this.#current.harness, this.#current.model, this.#spawned);
      scope.setAttributes({'gen_ai.input.messages': JSON.stringify([textMessage('user', text)])});
      try {
        const result = await session.run(text, {signal, mcpServers});
        this.#established = true;
        return result;
      } catch (error) {
        if (!this.#established && isStartupFailure(error)) {
          // The native session never got going: a failed initialization, so a later execute starts a new one.
          await this.#discardSession(session);
          throw this.#runError(error, signal);
        }
        if (this.#established || !(error instanceof ModelUnavailableError) || signal.aborted) {
          this.#established = true;
          throw this.#runError(error, signal);
        }
        await this.#moveToNextCandidate(session, error, scope);
      } finally {
        this.#observer = undefined;
      }
    }
  }

  /** Forgets a session that failed to start, closing what it did start; the conversation never began. */
  async #discardSession(session: HarnessSession): Promise<void> {
    this.#session = undefined;
    this.#state = 'new';
    await session.close().catch(() => {});
  }

  /**
   * The current candidate's model was rejected before any work: its session is closed first; only when that
   * succeeded, and another candidate is prepared, does selection move on. Nothing else changes the selection.
   */
  async #moveToNextCandidate(
    session: HarnessSession,
    rejection: ModelUnavailableError,
    scope: OperationScope,
  ): Promise<void> {
    const rejected = this.#candidates?.[0];
    this.#session = undefined;
    this.#state = 'new';
    // A rejection that cannot be cleaned up fixes the selection: a later execute starts on the same candidate.
    try {
      await session.close();
    } catch (closeError) {
      this.#established = true;
      throw new AgentRunError(
        `${rejection.message} Its session could not be closed (${messageOf(closeError)}), so no other model is tried.`,
        {
          agent: this.name,
          harness: this.#current.harness,
          cause: new AggregateError([rejection, closeError]),
        },
      );
    }
    const survivors =
      this.#sessionMarker === undefined ? [] : await findSurvivingSessionProcesses(this.#sessionMarker);
    if (survivors.length > 0) {
      this.#established = true;
      const listed = survivors.map((p) => `${p.pid} (${p.command.slice(0, 80)})`).join(', ');
      throw new AgentRunError(
        `${rejection.message} Its session was not cleaned up: ${survivors.length === 1 ? 'a process it started is' : 'processes it started are'} still running (${listed}), so no other model is tried. End ${survivors.length === 1 ? 'it' : 'them'}, and check the MCP servers of this agent.`,
        {
          agent: this.name,
          harness: this.#current.harness,
          cause: rejection,
        },
      );
    }
    if (rejected === undefined || this.#candidates === undefined || this.#candidates.length < 2) {
      throw new AgentRunError(`${rejection.message} No other prepared model is left to try.`, {
        agent: this.name,
        harness: this.#current.harness,
        cause: rejection,
      });
    }
    const detail = `${rejected.harness} rejected '${rejected.model}' (${rejection.evidence}${rejection.status === undefined ? '' : `, HTTP ${rejection.status}`})`;
    this.#skipped.push({...withoutCatalog(rejected), reason: 'model-rejected', detail});
    this.#candidates.shift();
    scope.addEvent('stratos.agent.fallback', {
      'stratos.agent.rejected_harness': rejected.harness,
      'stratos.agent.rejected_model': rejected.model,
      'stratos.agent.rejection': rejection.evidence,
    });
  }

  async #turn(text: string, signal: AbortSignal, scope: OperationScope): Promise<Output> {
    return this.#finish(await this.#runTurn(text, signal, scope), scope);
  }

  /** `stratos test`: the scripted answer, recorded and validated like a harness's. */
  #scriptedTurn(text: string, answer: ScriptedAgentAnswer, scope: OperationScope): Promise<Output> {
    scope.setAttributes({
      'gen_ai.input.messages': JSON.stringify([textMessage('user', text)]),
      'stratos.agent.scripted': true,
    });
    return this.#finish(scriptedResult(answer, this.#code.outputSchema !== undefined), scope);
  }

  /** Records the reply and turns the result into the answer: text, or the validated structured value. */
  async #finish(result: TurnResult, scope: OperationScope): Promise<Output> {
    scope.setAttributes({
      'gen_ai.output.messages': JSON.stringify([
        result.structured === undefined
          ? textMessage('assistant', result.text)
          : {role: 'assistant', parts: [{type: 'text', content: JSON.stringify(result.structured.value)}]},
      ]),
    });
    if (this.#code.outputSchema === undefined) return result.text as Output;
    if (result.structured === undefined) {
      throw new StratosError(
        'STRATOS_AGENT_OUTPUT_MISSING',
        `Agent '${this.name}' (${this.#current.harness}) ended without a structured result for its output schema; its text was not turned into one. Text: ${truncate(result.text)}`,
        {details: {agent: this.name, text: result.text}},
      );
    }
    const parsed = await this.#code.outputSchema.safeParseAsync(result.structured.value);
    if (!parsed.success) {
      throw new StratosError(
        'STRATOS_AGENT_OUTPUT_INVALID',
        `Agent '${this.name}' (${this.#current.harness}) returned a structured result that does not match its output schema: ${z.prettifyError(parsed.error)}`,
        {details: {agent: this.name, value: result.structured.value, issues: parsed.error.issues}},
      );
    }
    return parsed.data;
  }

  /**
   * Starts the native session. Each phase that does separate work is its own span under `start <harness>`: the
   * worktree, model selection, loading the adapter and its SDK, the authentication check and the session itself.
   */
  async #initialize(signal: AbortSignal, scope: OperationScope): Promise<HarnessSession> {
    // Worktrees: the agent's checkout exists before the harness starts (src/worktrees/, through the context).
    const worktree =
      this.settings.worktree === undefined || this.#worktree !== undefined
        ? this.#worktree
        : await this.#phase('worktree', 'prepare worktree', () => this.#acquireWorktree(scope));
    const env = createHarnessEnvironment();
    if (this.settings.models !== undefined)
      await this.#phase('selection', 'select model', () => this.#selectCandidate(env, signal, scope));
    if (this.settings.models !== undefined) {
      this.#sessionMarker = createSessionMarker();
      env[sessionMarkerVariable] = this.#sessionMarker;
    }
    const id = this.#current.harness;
    const harness =
      this.#harness?.id === id
        ? this.#harness
        : await this.#phase('sdk', `load ${findHarness(id).sdkPackage}`, async () => {
            const loaded = await loadHarness(id);
            // The SDK the adapter imports when its session starts, loaded here so its time is told apart.
            await preloadHarnessSdk(id);
            return loaded;
          });
    this.#harness = harness;
    await this.#phase('authentication', 'check authentication', () =>
      this.#checkAuthentication(harness, env, signal),
    );
    const tools =
      this.#tools ??
      resolveToolSelection(harness.id, this.settings.allowedTools, this.settings.disallowedTools, this.name);
    // A harness picked from model preferences: its tools are known only now, before anything starts.
    assertHookCoverage(this.name, harness.id, tools, this.#code.hooks);
    const workflow = this.#context.workflow;
    const systemPrompt =
      this.settings.systemPrompt === undefined
        ? undefined
        : await resolvePrompt(this.settings.systemPrompt, {
            directory: workflow.directory,
            field: `system prompt of agent '${this.name}'`,
          });
    const mcpServers = await refreshAgentMcpServers({
      workflow: workflow.name,
      directory: workflow.directory,
      servers: workflow.manifest.mcp?.servers ?? {},
      selected: this.settings.allowedMcps,
    });
    signal.throwIfAborted();
    const schema = this.#code.outputSchema;
    const finalPrompt =
      worktree === undefined ? systemPrompt : [systemPrompt, worktree.notice].filter(Boolean).join('\n\n');
    const resumeConversation = checkConversationContinuation(this.name, harness, this.#resumeFrom);
    this.#resumeFrom = undefined;
    try {
      this.#session = await this.#phase('session', `start ${harness.id} session`, () =>
        harness.createSession({
          ...(resumeConversation === undefined ? {} : {resumeConversation}),
          agent: this.name,
          model: this.#current.model,
          provider: this.#current.provider,
          effort: this.settings.effort,
          systemPrompt: finalPrompt,
          workingDirectory: worktree?.directory ?? this.settings.workingDirectory,
          mcpServers,
          tools,
          outputJsonSchema: schema === undefined ? undefined : toOutputJsonSchema(schema),
          env,
          hooks: this.#code.hooks ?? {},
          emit: (event) => {
            try {
              if (!this.#spawned.observe(event)) this.#observer?.observe(event);
              this.#code.onEvent?.(event);
            } catch {
              // Observing is best effort and never changes the execution.
            }
          },
        }),
      );
    } catch (error) {
      if (isStratosError(error)) throw error;
      throw new StratosError(
        'STRATOS_AGENT_INIT_FAILED',
        `Agent '${this.name}' could not start its ${this.#current.harness} session: ${messageOf(error)} A later execute may try again.`,
        {
          cause: error,
          details: {
            agent: this.name,
            harness: this.#current.harness,
            workingDirectory:
              relative(this.#context.invocationDirectory, this.settings.workingDirectory) || '.',
          },
        },
      );
    }
    this.#state = 'ready';
    this.#sessionsStarted += 1;
    this.#systemPrompt = finalPrompt;
    return this.#session;
  }

  /** One phase of start-up as its own span (`agent.start.<phase>`) under the `start <harness>` span. */
  #phase<T>(phase: string, name: string, fn: () => Promise<T>): Promise<T> {
    return this.#context.telemetry.operation({kind: `agent.start.${phase}`, name}, fn);
  }

  /**
   * The check before any work: the harness record's one authentication check for the provider (an explicit
   * provider owns its authentication: Codex's Azure never falls back to an OpenAI key or login); an Ollama agent
   * needs no credentials but its installed, tool-capable local model (./check-ollama-agent.ts).
   */
  async #checkAuthentication(
    harness: AgentHarness,
    env: Record<string, string>,
    signal: AbortSignal,
  ): Promise<void> {
    if (this.#current.provider === 'ollama') {
      const {requireOllamaAgentModel} = await import('./check-ollama-agent.ts');
      await requireOllamaAgentModel({agent: this.name, model: this.#current.model!, env, signal});
    } else await findHarness(harness.id).checkAuthentication(env, this.#current.provider);
  }

  /** With model preferences: prepares the candidates once, then makes the first untried one current. */
  async #selectCandidate(
    env: Record<string, string>,
    signal: AbortSignal,
    scope: OperationScope,
  ): Promise<void> {
    if (this.settings.models === undefined) return;
    if (this.#candidates === undefined) {
      const prepared = await prepareCandidates({agent: this.name, settings: this.settings, env, signal});
      this.#candidates = prepared.ready;
      this.#skipped.push(...prepared.skipped);
    }
    const candidate = this.#candidates[0]!;
    this.#current = {
      harness: candidate.harness as HarnessId,
      model: candidate.model,
      provider: candidate.provider,
      identity: candidate.identity,
    };
    this.#tools = resolveToolSelection(
      this.#current.harness,
      this.settings.allowedTools,
      this.settings.disallowedTools,
      this.name,
    );
    const selection = {
      'stratos.agent.harness': candidate.harness,
      'gen_ai.provider.name': candidate.provider,
      'gen_ai.request.model': candidate.model,
      'stratos.agent.model_identity': candidate.identity,
      'stratos.agent.catalog': candidate.catalog,
    };
    scope.setAttributes({
      ...selection,
      'stratos.agent.skipped': JSON.stringify(
        this.#skipped.map((skip) => `${skip.identity} on ${skip.harness}: ${skip.detail}`),
      ),
    });
    scope.addEvent('stratos.agent.selection', {
      ...selection,
      'stratos.agent.skipped_count': this.#skipped.length,
    });
  }

  // Worktrees: acquired once per agent (a retried initialization reuses it); the runtime releases it at run end.
  async #acquireWorktree(scope: OperationScope): Promise<AcquiredWorktree | undefined> {
    const setting = this.settings.worktree;
    if (setting === undefined || this.#worktree !== undefined) return this.#worktree;
    const gate = this.#context.worktrees;
    if (gate === undefined)
      throw new StratosError('STRATOS_INTERNAL', `Agent '${this.name}' asks for a worktree outside a run.`);
    this.#worktree = await gate.acquire({
      agent: this.name,
      directory: this.settings.workingDirectory,
      name: setting.name,
      cleanup: setting.cleanup,
      event: (name, attributes) => scope.addEvent(name, attributes),
    });
    return this.#worktree;
  }

  #runError(error: unknown, signal: AbortSignal): unknown {
    if (signal.aborted && signal.reason instanceof AgentRunError) return signal.reason;
    if (error instanceof AgentRunError) return error;
    if (error instanceof HookFailure) {
      return new AgentRunError(`${error.message} The execution failed.`, {
        code: 'STRATOS_AGENT_HOOK_FAILED',
        agent: this.name,
        harness: this.#current.harness,
        cause: error.cause,
      });
    }
    if (isStratosError(error)) return error;
    return new AgentRunError(messageOf(error), {
      agent: this.name,
      harness: this.#current.harness,
      cause: error,
    });
  }

  async #close(): Promise<void> {
    this.#state = 'closed';
    this.#unregister();
    this.cancel();
    const session = this.#session;
    this.#session = undefined;
    await session?.close();
    await this.#running?.done.catch(() => {});
  }
}

/**
 * A first turn that failed because the native session could not start what it needs before any request (a
 * selected MCP server): the same object may try again.
 */
function isStartupFailure(error: unknown): boolean {
  return isStratosError(error) && error.code === 'STRATOS_MCP_CONNECT_FAILED';
}

async function runLifecycleHook(
  hook: string,
  fn: () => void | Promise<void>,
  agent: AgentSession<unknown>,
): Promise<void> {
  try {
    await fn();
  } catch (error) {
    throw new AgentRunError(`the ${hook} hook threw: ${messageOf(error)}`, {
      code: 'STRATOS_AGENT_HOOK_FAILED',
      agent: agent.name,
      harness: agent.harness,
      cause: error,
    });
  }
}

/** The output schema as harnesses take it: JSON Schema without the `$schema` dialect marker they reject. */
function toOutputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const {$schema: _dialect, ...rest} = z.toJSONSchema(schema, {io: 'output'}) as Record<string, unknown>;
  return rest;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function truncate(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : JSON.stringify(text);
}

/** One message in the OpenTelemetry GenAI message-content shape (`gen_ai.input.messages`/`output.messages`). */
function textMessage(role: 'user' | 'assistant', content: string): {role: string; parts: unknown[]} {
  return {role, parts: [{type: 'text', content}]};
}

/** A ready candidate as a skip record (without its catalog status). */
function withoutCatalog(candidate: ReadyCandidate): Omit<SelectionSkip, 'reason' | 'detail'> {
  return {
    harness: candidate.harness,
    provider: candidate.provider,
    model: candidate.model,
    identity: candidate.identity,
  };
}
