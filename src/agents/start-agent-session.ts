/**
 * The start-up of an agent's native session, at its first execute (or the next one after a failed start or a
 * model rejection). Each phase that does separate work is its own span under `start <harness>`: the worktree,
 * model selection, loading the adapter and its SDK, the authentication check and the session itself.
 */
import {resolvePrompt} from '../config/prompts.ts';
import type {AcquiredWorktree, ExecutionContext} from '../context/execution-context.ts';
import {StratosError} from '../errors/index.ts';
import type {OperationScope} from '../telemetry/index.ts';
import {mapSessionStartError} from './agent-errors.ts';
import {refreshAgentMcpServers} from './agent-mcp-servers.ts';
import {checkConversationContinuation, type JournaledConversation} from './agent-resume.ts';
import {assertHookCoverage} from './check-hook-coverage.ts';
import type {AgentHarness, HarnessSession} from './harness.ts';
import {createHarnessEnvironment} from './harness-kit/agent-environment.ts';
import type {AgentEvent} from './harness-kit/hooks.ts';
import {findHarness} from './harnesses/registry.ts';
import {loadHarness, preloadHarnessSdk} from './load-harness.ts';
import type {CandidateCursor} from './selection/candidate-cursor.ts';
import {createSessionMarker, sessionMarkerVariable} from './selection/find-session-processes.ts';
import {prepareCandidates} from './selection/prepare-candidates.ts';
import type {AgentSettings, ResolvedAgentSettings} from './settings.ts';
import {resolveToolSelection, type ToolSelection} from './tool-names.ts';
import {toOutputJsonSchema} from './turn-output.ts';

/** The agent a session starts for: what start-up reads. */
export interface StartingAgent {
  name: string;
  settings: Readonly<ResolvedAgentSettings>;
  code: AgentSettings<unknown>;
  context: ExecutionContext;
  cursor: CandidateCursor;
  /** Resume: the native conversation of the last replayed turn, continued by this session. */
  resumeFrom: JournaledConversation | undefined;
  /** The step key of the agent's first execute: a resumed run's agent gets the checkout it used (worktrees). */
  firstStepKey: string | undefined;
  /** Receives every observation of the harness. */
  emit: (event: AgentEvent) => void;
}

/**
 * What the agent keeps across start-ups, updated as each phase succeeds: a retried start reuses the worktree and
 * the loaded adapter; `tools` are fixed by selection; `sessionMarker` tags the processes of the current session.
 */
export interface AgentStartState {
  worktree: AcquiredWorktree | undefined;
  harness: AgentHarness | undefined;
  tools: ToolSelection | undefined;
  sessionMarker: string | undefined;
}

/**
 * Starts the native session under its own `start <harness>` span and returns it with the system prompt it was
 * given (the worktree notice included).
 * @throws StratosError the worktree, selection (STRATOS_AGENT_NO_CANDIDATE, ...), STRATOS_AGENT_HARNESS_MISSING,
 *   authentication, prompt and MCP codes; STRATOS_AGENT_INIT_FAILED when the harness could not start its session.
 */
export function startAgentSession(
  agent: StartingAgent,
  state: AgentStartState,
  signal: AbortSignal,
  scope: OperationScope,
): Promise<{session: HarnessSession; systemPrompt: string | undefined}> {
  return agent.context.telemetry.operation(
    {
      kind: 'agent.start',
      name: `start ${agent.cursor.current.harness}`,
      attributes: {'stratos.agent.harness': agent.cursor.current.harness},
    },
    () => startPhases(agent, state, signal, scope),
  );
}

async function startPhases(
  agent: StartingAgent,
  state: AgentStartState,
  signal: AbortSignal,
  scope: OperationScope,
): Promise<{session: HarnessSession; systemPrompt: string | undefined}> {
  const {name, settings, code, context, cursor} = agent;
  // A recovered run on another machine: refused before the worktree, the harness or any request.
  if (agent.resumeFrom?.machine !== undefined) {
    const {checkConversationMachine} = await import('./check-conversation-machine.ts');
    checkConversationMachine(name, agent.resumeFrom, context.steps?.machine);
  }
  const phase = <T>(id: string, label: string, fn: () => Promise<T>): Promise<T> =>
    context.telemetry.operation({kind: `agent.start.${id}`, name: label}, fn);
  // Worktrees: the agent's checkout exists before the harness starts (src/worktrees/, through the context).
  const worktree =
    settings.worktree === undefined || state.worktree !== undefined
      ? state.worktree
      : await phase('worktree', 'prepare worktree', () => acquireWorktree(agent, state, scope));
  const env = createHarnessEnvironment();
  if (settings.models !== undefined) {
    await phase('selection', 'select model', () => selectCandidate(agent, state, env, signal, scope));
    state.sessionMarker = createSessionMarker();
    env[sessionMarkerVariable] = state.sessionMarker;
  }
  const id = cursor.current.harness;
  const harness =
    state.harness?.id === id
      ? state.harness
      : await phase('sdk', `load ${findHarness(id).sdkPackage}`, async () => {
          const loaded = await loadHarness(id);
          // The SDK the adapter imports when its session starts, loaded here so its time is told apart.
          await preloadHarnessSdk(id);
          return loaded;
        });
  state.harness = harness;
  await phase('authentication', 'check authentication', () =>
    checkAuthentication(agent, harness, env, signal),
  );
  const tools =
    state.tools ?? resolveToolSelection(harness.id, settings.allowedTools, settings.disallowedTools, name);
  // A harness picked from model preferences: its tools are known only now, before anything starts.
  assertHookCoverage(name, harness.id, tools, code.hooks);
  const workflow = context.workflow;
  const systemPrompt =
    settings.systemPrompt === undefined
      ? undefined
      : await resolvePrompt(settings.systemPrompt, {
          directory: workflow.directory,
          field: `system prompt of agent '${name}'`,
        });
  const mcpServers = await refreshAgentMcpServers({
    workflow: workflow.name,
    directory: workflow.directory,
    servers: workflow.manifest.mcp?.servers ?? {},
    selected: settings.allowedMcps,
  });
  signal.throwIfAborted();
  const schema = code.outputSchema;
  const finalPrompt =
    worktree === undefined ? systemPrompt : [systemPrompt, worktree.notice].filter(Boolean).join('\n\n');
  const resumeConversation = checkConversationContinuation(name, harness, agent.resumeFrom);
  try {
    const session = await phase('session', `start ${harness.id} session`, () =>
      harness.createSession({
        ...(resumeConversation === undefined ? {} : {resumeConversation}),
        agent: name,
        model: cursor.current.model,
        provider: cursor.current.provider,
        effort: settings.effort,
        systemPrompt: finalPrompt,
        workingDirectory: worktree?.directory ?? settings.workingDirectory,
        mcpServers,
        tools,
        outputJsonSchema: schema === undefined ? undefined : toOutputJsonSchema(schema),
        env,
        hooks: code.hooks ?? {},
        settings,
        maxBudgetUsd: context.spend?.remaining().usd,
        emit: agent.emit,
      }),
    );
    return {session, systemPrompt: finalPrompt};
  } catch (error) {
    throw mapSessionStartError(error, {
      agent: name,
      harness: cursor.current.harness,
      workingDirectory: settings.workingDirectory,
      invocationDirectory: context.invocationDirectory,
    });
  }
}

/**
 * The check before any work: the harness record's one authentication check for the provider (an explicit
 * provider owns its authentication: Codex's Azure never falls back to an OpenAI key or login); an Ollama agent
 * needs no credentials but its installed, tool-capable local model (./check-ollama-agent.ts).
 */
async function checkAuthentication(
  agent: StartingAgent,
  harness: AgentHarness,
  env: Record<string, string>,
  signal: AbortSignal,
): Promise<void> {
  const {provider, model} = agent.cursor.current;
  if (provider === 'ollama') {
    const {requireOllamaAgentModel} = await import('./check-ollama-agent.ts');
    await requireOllamaAgentModel({agent: agent.name, model: model!, env, signal});
  } else await findHarness(harness.id).checkAuthentication(env, provider);
}

/** With model preferences: prepares the candidates once, then makes the first untried one current. */
async function selectCandidate(
  agent: StartingAgent,
  state: AgentStartState,
  env: Record<string, string>,
  signal: AbortSignal,
  scope: OperationScope,
): Promise<void> {
  const {cursor, settings, name} = agent;
  if (!cursor.prepared) cursor.prepare(await prepareCandidates({agent: name, settings, env, signal}));
  const candidate = cursor.selectFirst();
  state.tools = resolveToolSelection(
    candidate.harness,
    settings.allowedTools,
    settings.disallowedTools,
    name,
  );
  const selection = {
    'stratos.agent.harness': candidate.harness,
    'gen_ai.provider.name': candidate.provider,
    'gen_ai.request.model': candidate.model,
    'stratos.agent.model_identity': candidate.identity,
    'stratos.agent.catalog': candidate.catalog,
  };
  const skipped = cursor.skipped;
  scope.setAttributes({
    ...selection,
    'stratos.agent.skipped': JSON.stringify(
      skipped.map((skip) => `${skip.identity} on ${skip.harness}: ${skip.detail}`),
    ),
  });
  scope.addEvent('stratos.agent.selection', {...selection, 'stratos.agent.skipped_count': skipped.length});
}

// Worktrees: acquired once per agent (a retried start reuses it); the runtime releases it at run end.
async function acquireWorktree(
  agent: StartingAgent,
  state: AgentStartState,
  scope: OperationScope,
): Promise<AcquiredWorktree | undefined> {
  const setting = agent.settings.worktree;
  if (setting === undefined || state.worktree !== undefined) return state.worktree;
  const gate = agent.context.worktrees;
  if (gate === undefined)
    throw new StratosError('STRATOS_INTERNAL', `Agent '${agent.name}' asks for a worktree outside a run.`);
  state.worktree = await gate.acquire({
    agent: agent.name,
    directory: agent.settings.workingDirectory,
    name: setting.name,
    cleanup: setting.cleanup,
    key: agent.firstStepKey,
    event: (name, attributes) => scope.addEvent(name, attributes),
  });
  return state.worktree;
}
