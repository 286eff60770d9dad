/**
 * `connectMcpServer`: what a generated factory (`await createGithub()`) calls. It finds the server's
 * configuration through the running invocation, registers the connection with the invocation's resources before
 * connecting (so a half-made client is still closed), and resolves once the protocol is ready.
 */

import {requireExecutionContext} from '../../context/execution-context.ts';
import type {RecordedAnswer} from '../../context/recorded-steps.ts';
import {describeReplayedStep, journaledFailure, replayOutcome} from '../../context/replayed-step.ts';
import {type OpenedStep, openStep, type StepCall} from '../../context/step-seam.ts';
import {McpToolError, StratosError} from '../../errors/index.ts';
import {describeError} from '../../internal/describe-error.ts';
import {toRecordedJson} from '../../telemetry/index.ts';
import type {McpToolSnapshot} from '../codegen/index.ts';
import {findResultDepthProblem, limitOf, messageLimitError} from './message-limits.ts';
import {readRememberedVerdicts, rememberVerdict} from './negotiation-verdict.ts';
import {McpClientSession} from './open-client.ts';
import {resolveMcpConnectTimeoutMs, resolveMcpRequestTimeoutMs} from './request-timeout.ts';
import {resolveMcpTransport, transportIdentity} from './resolve-transport.ts';
import type {McpToolResult} from './tool-result.ts';
import {assertStructuredContent} from './validate-output.ts';

export interface ConnectMcpServerOptions {
  /** The `mcp.servers` key in the running workflow's workflow.yaml. */
  server: string;
  /** The wrapper's discovery snapshot: dispatch names and the schemas results are validated against. */
  tools: readonly McpToolSnapshot[];
}

/** A ready connection to one MCP server, owned (and closed at its end) by the invocation that created it. */
export interface McpServerConnection {
  readonly server: string;
  /** The negotiated protocol revision, such as `2026-07-28` or `2025-11-25`. */
  readonly protocolVersion: string | undefined;
  /**
   * Calls a tool once (no retry). Calls may run concurrently.
   *
   * @throws McpToolError for a result with `isError: true`; StratosError `STRATOS_MCP_OUTPUT_MISSING`,
   *   `STRATOS_MCP_OUTPUT_INVALID`, `STRATOS_MCP_REQUEST_TIMEOUT`, `STRATOS_MCP_CALL_FAILED`,
   *   `STRATOS_MCP_CALL_CANCELLED`, `STRATOS_MCP_RESULT_TOO_LARGE`, `STRATOS_MCP_RESULT_TOO_DEEP`.
   */
  callTool(name: string, args?: Record<string, unknown>): Promise<McpToolResult>;
  // No close(): the invocation that created the connection closes it when it ends (there is no public early
  // disposal); the resource it registered is the only way to close it.
}

/**
 * Connects to a configured MCP server for the running workflow invocation. Generated wrappers call it; workflow
 * code calls the generated factory instead.
 *
 * @throws StratosError `STRATOS_RUNTIME_NO_CONTEXT` outside a running workflow, `STRATOS_MCP_SERVER_UNKNOWN`,
 *   `STRATOS_CONFIG_*` for unresolvable references, `STRATOS_MCP_CONNECT_FAILED`, `STRATOS_MCP_REQUEST_TIMEOUT`;
 *   AuthenticationError (`STRATOS_AUTH_*`, `STRATOS_CREDENTIALS_*`) for an OAuth server.
 * @example
 * const connection = await connectMcpServer({server: 'github', tools});
 * const result = await connection.callTool('get_me', {});
 */
export async function connectMcpServer(options: ConnectMcpServerOptions): Promise<McpServerConnection> {
  const {server} = options;
  const context = requireExecutionContext(`The MCP server factory of '${server}'`);
  const {workflow} = context;
  const config = workflow.manifest.mcp?.servers[server];
  if (config === undefined) {
    throw new StratosError(
      'STRATOS_MCP_SERVER_UNKNOWN',
      `The MCP server '${server}' is not configured in mcp.servers of workflow '${workflow.name}' (${workflow.directory}/workflow.yaml). ` +
        `Add it there, or remove the import of ./generated/mcp/${server}.js, then run 'stratos build ${workflow.name}'.`,
      {details: {server, workflow: workflow.name}},
    );
  }
  // A server the run's recorded steps answer in full (a `stratos test` case scripts it) connects to nothing.
  if (context.steps?.answersServer({workflow: workflow.name, server}) === true) {
    const {connectScriptedServer} = await import('./scripted-connection.ts');
    return connectScriptedServer(context, server, options.tools);
  }
  const timeoutMs = resolveMcpRequestTimeoutMs();
  const identity = transportIdentity(config, workflow.directory);
  const prior = (await readRememberedVerdicts(workflow.directory))[server];
  let session: McpClientSession | undefined;
  const unregister = context.resources.register({
    label: `mcp:${server}`,
    close: () => session?.close(),
  });
  const attributes = {'mcp.server': server, 'mcp.transport': config.type};
  try {
    return await context.telemetry.operation(
      {kind: 'mcp.connect', name: `connect ${server}`, attributes},
      async (scope) => {
        const spec = await resolveMcpTransport(config, {
          server,
          workflow: workflow.name,
          directory: workflow.directory,
        });
        session = new McpClientSession({
          server,
          spec,
          timeoutMs: resolveMcpConnectTimeoutMs(),
          signal: context.abortController.signal,
          prior,
          identity,
        });
        await session.open();
        const reached = session.verdict;
        if (reached !== undefined && JSON.stringify(reached) !== JSON.stringify(prior)) {
          await rememberVerdict(workflow.directory, server, reached);
        }
        const protocolVersion = session.protocolVersion;
        scope.setAttributes({'mcp.protocol_version': protocolVersion});
        return new Connection(server, session, options.tools, {
          timeoutMs,
          signal: context.abortController.signal,
          telemetry: context.telemetry,
          openStep: (call) => openStep(context, call),
          attributes: {...attributes, 'mcp.protocol_version': protocolVersion},
        });
      },
    );
  } catch (error) {
    await session?.close();
    unregister();
    throw error;
  }
}

interface ConnectionSettings {
  timeoutMs: number;
  signal: AbortSignal;
  telemetry: ReturnType<typeof requireExecutionContext>['telemetry'];
  /** The invocation's step seam: each call is a journaled step. */
  openStep: (call: StepCall) => OpenedStep;
  attributes: Record<string, string | undefined>;
}

class Connection implements McpServerConnection {
  readonly server: string;
  readonly #session: McpClientSession;
  readonly #tools: Map<string, McpToolSnapshot>;
  readonly #settings: ConnectionSettings;
  readonly #signal: AbortSignal;

  constructor(
    server: string,
    session: McpClientSession,
    tools: readonly McpToolSnapshot[],
    settings: ConnectionSettings,
  ) {
    this.server = server;
    this.#session = session;
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
    this.#settings = settings;
    this.#signal = AbortSignal.any([settings.signal, session.closingSignal]);
  }

  get protocolVersion(): string | undefined {
    return this.#session.protocolVersion;
  }

  callTool(name: string, args?: Record<string, unknown>): Promise<McpToolResult> {
    const step = this.#settings.openStep({
      kind: 'mcp',
      name: `${this.server}/${name}`,
      arguments: args ?? {},
    });
    return this.#settings.telemetry.operation(
      {
        kind: 'mcp.call',
        name: `tools/call ${name}`,
        attributes: {
          ...this.#settings.attributes,
          'mcp.tool': name,
          'gen_ai.tool.name': name,
          'gen_ai.tool.call.arguments': toRecordedJson(args ?? {}),
        },
      },
      async (scope) => {
        const recorded = step.answer({server: this.server, tool: name});
        if (recorded?.source === 'journal') scope.setAttributes(describeReplayedStep(recorded.entry));
        const result = this.#check(name, await this.#answer(name, args, step, recorded));
        scope.setAttributes({'gen_ai.tool.call.result': toRecordedJson(recordedResult(result))});
        return result;
      },
    );
  }

  /** The server's result: journaled (resume) or requested, then journaled before anything reads it. */
  async #answer(
    name: string,
    args: Record<string, unknown> | undefined,
    step: OpenedStep,
    recorded: RecordedAnswer | undefined,
  ): Promise<McpToolResult> {
    if (recorded?.source === 'journal') return replayOutcome(recorded.entry) as McpToolResult;
    let result: McpToolResult;
    try {
      result = await this.#request(name, args);
    } catch (error) {
      const failure = journaledFailure(error);
      if (failure !== undefined) await step.complete(failure);
      throw error;
    }
    await step.complete({value: result});
    return result;
  }

  async #request(name: string, args: Record<string, unknown> | undefined): Promise<McpToolResult> {
    const tool = this.#tools.get(name);
    if (this.#signal.aborted) throw this.#cancelled(name, this.#signal.reason);
    let result: McpToolResult;
    try {
      // The snapshot's input schema drives the SDK's header mirroring; its output schema is validated here, so
      // the SDK gets none and never needs its own tools/list.
      result = (await this.#session.client.callTool(
        {name, arguments: args ?? {}},
        {
          timeout: this.#settings.timeoutMs,
          signal: this.#signal,
          ...(tool === undefined ? {} : {toolDefinition: {name, inputSchema: tool.inputSchema as never}}),
        },
      )) as McpToolResult;
    } catch (error) {
      // A message over a limit ends the request (and, over stdio, the connection): report the limit, which is
      // the cause of the "Connection closed" or the closing that follows.
      const limit = limitOf(error) ?? this.#session.takeLimitFailure()?.limit;
      if (limit !== undefined) {
        throw messageLimitError(limit, {server: this.server, request: `tools/call '${name}'`}, error);
      }
      if (this.#signal.aborted) throw this.#cancelled(name, error);
      if ((error as {code?: unknown}).code === 'REQUEST_TIMEOUT') {
        throw new StratosError(
          'STRATOS_MCP_REQUEST_TIMEOUT',
          `The MCP tool '${name}' of server '${this.server}' did not answer within ${this.#settings.timeoutMs} ms; the request was cancelled and is not retried.`,
          {cause: error, details: {server: this.server, tool: name}},
        );
      }
      throw new StratosError(
        'STRATOS_MCP_CALL_FAILED',
        `The MCP tool call '${name}' of server '${this.server}' failed: ${describeError(error)}`,
        {cause: error, details: {server: this.server, tool: name}},
      );
    }
    // Nothing reads the result before this check: it is held to the depth of workflow values.
    const deep = findResultDepthProblem(result);
    if (deep !== undefined) {
      throw messageLimitError(
        'depth',
        {server: this.server, request: `tools/call '${name}'`},
        undefined,
        deep,
      );
    }
    return result;
  }

  #check(name: string, result: McpToolResult): McpToolResult {
    const tool = this.#tools.get(name);
    if (result.isError === true) throw new McpToolError(this.server, name, result);
    if (tool?.outputSchema !== undefined)
      assertStructuredContent(this.server, name, tool.outputSchema, result.structuredContent);
    return result;
  }

  #cancelled(name: string, cause: unknown): StratosError {
    return new StratosError(
      'STRATOS_MCP_CALL_CANCELLED',
      `The MCP tool call '${name}' of server '${this.server}' was cancelled because its connection or workflow invocation ended.`,
      {cause, details: {server: this.server, tool: name}},
    );
  }
}

/** What a call span records of a result: its content blocks and structured content, as the server sent them. */
function recordedResult(result: McpToolResult): unknown {
  return result.structuredContent === undefined
    ? {content: result.content}
    : {content: result.content, structuredContent: result.structuredContent};
}
