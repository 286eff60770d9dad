/**
 * The agent object: one conversation of one workflow invocation. `execute` renders the prompt, lets the turn begin
 * (./begin-turn.ts: a scripted answer or admission), runs it between the lifecycle hooks and returns its output;
 * `cancel` stops the running execute. The native session starts at the first execute (./start-agent-session.ts).
 */
import {type PromptReference, type PromptVariables, resolvePrompt} from '../config/prompts.ts';
import type {ExecutionContext} from '../context/execution-context.ts';
import type {ScriptedAgentAnswer} from '../context/scripted-answers.ts';
import {type OpenedStep, openStep} from '../context/step-seam.ts';
import type {OperationScope} from '../telemetry/index.ts';
import {describeAgentConfiguration, describeAgentSession} from './agent-attributes.ts';
import {
  createBusyError,
  createCancelledError,
  createClosedError,
  createInvocationCancelledError,
  mapRunError,
} from './agent-errors.ts';
import {refreshAgentMcpServers} from './agent-mcp-servers.ts';
import {
  describeJournaledTurn,
  type JournaledConversation,
  readJournaledConversation,
  replayAgentTurn,
} from './agent-resume.ts';
import {checkAgentBudget, observeAgentSpend, recordNativeBudgetStop} from './agent-spend.ts';
import type {Agent, AgentSelection} from './agent-types.ts';
import {beginTurn} from './begin-turn.ts';
import type {HarnessSession, HarnessTurnResult} from './harness.ts';
import type {ModelUnavailableError} from './harness-kit/model-unavailable-error.ts';
import {runWithLifecycleHooks} from './lifecycle-hooks.ts';
import {moveToNextCandidate} from './move-to-next-candidate.ts';
import {CandidateCursor} from './selection/candidate-cursor.ts';
import type {AgentSettings, HarnessId, ResolvedAgentSettings} from './settings.ts';
import {SpawnedWorkTelemetry} from './spawned-work-telemetry.ts';
import {type AgentStartState, type StartingAgent, startAgentSession} from './start-agent-session.ts';
import type {ToolSelection} from './tool-names.ts';
import {
  describeInputMessages,
  describeOutputMessages,
  readTurnOutput,
  toScriptedResult,
} from './turn-output.ts';
import {TurnTelemetry} from './turn-telemetry.ts';

export class AgentSession<Output> implements Agent<Output> {
  readonly name: string;
  readonly settings: Readonly<ResolvedAgentSettings>;
  #context: ExecutionContext;
  #code: AgentSettings<Output>;
  /** The harness, provider and model the conversation runs on, the candidates left and the ones skipped. */
  #cursor: CandidateCursor;
  /** The worktree, loaded adapter, tools and session marker, kept across start-ups. */
  #start: AgentStartState;
  #sessionsStarted = 0;
  #closed = false;
  #session: HarnessSession | undefined;
  /** Resume: the native conversation of the last replayed turn, continued by the next session. */
  #resumeFrom: JournaledConversation | undefined;
  /** The key of the first execute's step: the agent's identity across a resume (its worktree). */
  #firstStepKey: string | undefined;
  #running: {controller: AbortController; done: Promise<unknown>} | undefined;
  /** Records the running turn's harness observations under its agent span. */
  #observer: TurnTelemetry | undefined;
  /** Sub-agent and background-task work, recorded where it began even when it is reported after its turn. */
  #spawned = new SpawnedWorkTelemetry();
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
    this.#cursor = new CandidateCursor({
      harness: settings.harness,
      model: settings.model,
      provider: settings.provider,
    });
    this.#start = {worktree: undefined, harness: undefined, tools, sessionMarker: undefined};
    this.#context = context;
    this.#code = code;
    // Registered before lazy initialization, so a half-started session is still cleaned up with the invocation.
    this.#unregister = context.resources.register({label: `agent:${name}`, close: () => this.#close()});
  }

  /** The harness the conversation runs on (selection's choice once made). */
  get harness(): HarnessId {
    return this.#cursor.current.harness;
  }

  get selection(): AgentSelection | undefined {
    return this.#sessionsStarted === 0 ? undefined : this.#cursor.describeSelection(this.#sessionsStarted);
  }

  cancel(): void {
    this.#running?.controller.abort(createCancelledError(this.#subject()));
  }

  execute(prompt: PromptReference, variables?: PromptVariables): Promise<Output> {
    if (this.#running !== undefined) return Promise.reject(createBusyError(this.name));
    if (this.#closed || this.#context.resources.closed)
      return Promise.reject(createClosedError(this.name, this.#context.workflow.name));
    // The step is keyed now, in call order, so parallel executes keep their places in the journal.
    const step = openStep(this.#context, {kind: 'agent', name: this.name, arguments: {prompt, variables}});
    this.#firstStepKey ??= step.key === '' ? undefined : step.key;
    const controller = new AbortController();
    const invocation = this.#context.abortController.signal;
    const onInvocationAbort = () =>
      controller.abort(createInvocationCancelledError(this.#subject(), invocation.reason));
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
            target:
              this.settings.harnessSelected && this.#sessionsStarted === 0 ? undefined : this.#cursor.current,
            tools: this.#start.tools,
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
    // The prompt renders first: a missing variable fails before admission, initialization or any request.
    const text = await resolvePrompt(prompt, {
      directory: this.#context.workflow.directory,
      variables,
      field: `prompt of agent '${this.name}'`,
    });
    // Recorded data answers the turn: a journaled turn is its recorded answer (the next live turn continues its
    // native conversation); a case's scripted answer runs below like a harness's.
    const recorded = step.answer({prompt: text});
    if (recorded?.source === 'journal') {
      this.#resumeFrom = readJournaledConversation(recorded.entry);
      return replayAgentTurn(recorded.entry, scope) as Output;
    }
    // A turn is about to run (./begin-turn.ts): scripted, or admitted to the harness.
    const {scripted, release} = await beginTurn(this.#context, this.name, recorded, signal, () =>
      checkAgentBudget(this.#context, scope, this.name, this.#cursor.current),
    );
    try {
      return await runWithLifecycleHooks(
        this.#code.hooks ?? {},
        {agent: this.name, harness: this.#cursor.current.harness, prompt: text},
        () => this.#cursor.current.harness,
        () =>
          scripted === undefined
            ? this.#journaledTurn(text, signal, scope, step)
            : this.#scriptedTurn(text, scripted, scope),
      );
    } finally {
      release();
    }
  }

  /** A live turn on the harness, journaled (with its native conversation) before its output is handed back. */
  async #journaledTurn(
    text: string,
    signal: AbortSignal,
    scope: OperationScope,
    step: OpenedStep,
  ): Promise<Output> {
    const output = await this.#harnessTurn(text, signal, scope);
    const conversation = this.#session?.conversationId?.();
    await step.complete(
      {value: output},
      describeJournaledTurn(
        text,
        this.#cursor.current.harness,
        conversation,
        this.#start.worktree?.directory,
      ),
    );
    return output;
  }

  /** `stratos test`: the scripted answer, recorded and validated like a harness's. */
  #scriptedTurn(text: string, answer: ScriptedAgentAnswer, scope: OperationScope): Promise<Output> {
    scope.setAttributes({
      'gen_ai.input.messages': describeInputMessages(text),
      'stratos.agent.scripted': true,
    });
    return this.#finish(toScriptedResult(answer, this.#code.outputSchema !== undefined), scope);
  }

  /** One turn on the harness; on the first, a structured model rejection moves to the next prepared candidate. */
  async #harnessTurn(text: string, signal: AbortSignal, scope: OperationScope): Promise<Output> {
    const workflow = this.#context.workflow;
    for (;;) {
      // Start-up (loading the SDK, authentication, starting the native session) is its own span, apart from turns.
      const session = this.#session ?? (await this.#startSession(signal, scope));
      signal.throwIfAborted();
      scope.setAttributes({
        ...describeAgentSession({systemPrompt: this.#systemPrompt, worktree: this.#start.worktree}),
        'stratos.agent.removed_tools':
          this.#start.tools === undefined ? undefined : [...this.#start.tools.removed],
      });
      const mcpServers = await refreshAgentMcpServers({
        workflow: workflow.name,
        directory: workflow.directory,
        servers: workflow.manifest.mcp?.servers ?? {},
        selected: this.settings.allowedMcps,
      });
      // Model and tool calls are recorded as the harness reports them, siblings under this execute's agent span;
      // the turn as a whole is not a model call (it includes the tool calls).
      const {harness, model} = this.#cursor.current;
      this.#observer = new TurnTelemetry(
        scope,
        harness,
        model,
        this.#spawned,
        observeAgentSpend(this.#context, scope, this.name, this.#cursor.current, (reason) =>
          this.#running?.controller.abort(reason),
        ),
      );
      scope.setAttributes({'gen_ai.input.messages': describeInputMessages(text)});
      let result: HarnessTurnResult;
      try {
        result = await session.run(text, {signal, mcpServers});
        this.#cursor.fix();
      } catch (error) {
        recordNativeBudgetStop(scope, error);
        const outcome = this.#cursor.decideFailure(error, signal.aborted);
        // The native session never got going: a failed initialization, so a later execute starts a new one.
        if (outcome === 'restart') await this.#discardSession(session);
        if (outcome === 'fail') this.#cursor.fix();
        if (outcome !== 'fall-back') throw mapRunError(error, signal, this.#subject());
        // The model was rejected before any work: its session is closed, then the next candidate starts.
        this.#session = undefined;
        await moveToNextCandidate({
          session,
          rejection: error as ModelUnavailableError,
          cursor: this.#cursor,
          sessionMarker: this.#start.sessionMarker,
          subject: this.#subject(),
          scope,
        });
        continue;
      } finally {
        this.#observer = undefined;
      }
      return this.#finish(result, scope);
    }
  }

  /** Records the reply and turns the result into the answer: text, or the validated structured value. */
  #finish(result: HarnessTurnResult, scope: OperationScope): Promise<Output> {
    scope.setAttributes({'gen_ai.output.messages': describeOutputMessages(result)});
    return readTurnOutput(result, this.#code.outputSchema, {agent: this.name, harness: this.harness});
  }

  async #startSession(signal: AbortSignal, scope: OperationScope): Promise<HarnessSession> {
    const started = await startAgentSession(this.#startingAgent(), this.#start, signal, scope);
    this.#session = started.session;
    this.#sessionsStarted += 1;
    this.#systemPrompt = started.systemPrompt;
    return started.session;
  }

  #startingAgent(): StartingAgent {
    return {
      name: this.name,
      settings: this.settings,
      code: this.#code as AgentSettings<unknown>,
      context: this.#context,
      cursor: this.#cursor,
      resumeFrom: this.#takeResumeFrom(),
      firstStepKey: this.#firstStepKey,
      emit: (event) => {
        try {
          if (!this.#spawned.observe(event)) this.#observer?.observe(event);
          this.#code.onEvent?.(event);
        } catch {
          // Observing is best effort and never changes the execution.
        }
      },
    };
  }

  /** The replayed conversation a starting session continues; handed out once. */
  #takeResumeFrom(): JournaledConversation | undefined {
    const from = this.#resumeFrom;
    this.#resumeFrom = undefined;
    return from;
  }

  /** Forgets a session that failed to start, closing what it did start; the conversation never began. */
  async #discardSession(session: HarnessSession): Promise<void> {
    this.#session = undefined;
    await session.close().catch(() => {});
  }

  #subject(): {agent: string; harness: HarnessId} {
    return {agent: this.name, harness: this.#cursor.current.harness};
  }

  async #close(): Promise<void> {
    this.#closed = true;
    this.#unregister();
    this.cancel();
    const session = this.#session;
    this.#session = undefined;
    await session?.close();
    await this.#running?.done.catch(() => {});
  }
}
