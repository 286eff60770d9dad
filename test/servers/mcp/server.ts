/**
 * Builds low-level MCP SDK v2 `Server` instances for the test server definitions.
 *
 * tools/list and tools/call are served through `setRequestHandler`, not `McpServer.registerTool`, so the raw
 * JSON Schemas (including array/primitive/null/`{}` output schemas) go out unchanged and tools can return
 * structured content that deliberately violates their schema.
 */
import {appendFileSync} from 'node:fs';
import type {CallToolResult, McpRequestContext, McpServerFactory, Tool} from '@modelcontextprotocol/server';
import {ProtocolError, ProtocolErrorCode, Server} from '@modelcontextprotocol/server';
import AjvModule from 'ajv';
import {getServerDefinition} from './definitions.ts';
import type {
  CallRecorder,
  Era,
  JsonObject,
  RecordedCall,
  ServerDefinition,
  ServerMode,
  ServerSettings,
  ToolDefinition,
  TransportKind,
} from './types.ts';

export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Legacy revisions accepted by a `legacy` (and the legacy leg of a `both`) server, preferred first. */
export const DEFAULT_LEGACY_PROTOCOL_VERSIONS: readonly string[] = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
];

export interface HostOptions {
  transport: TransportKind;
  mode?: ServerMode;
  /** Legacy revisions to accept (default {@link DEFAULT_LEGACY_PROTOCOL_VERSIONS}). */
  legacyProtocolVersions?: readonly string[];
  /** Overrides for env-backed settings. */
  settings?: Partial<ServerSettings>;
  recorders?: CallRecorder[];
  onerror?: (error: Error) => void;
}

/** State shared by every instance a factory creates (call sequence and recorders). */
export interface ServerHost {
  definition: ServerDefinition;
  mode: ServerMode;
  settings: () => ServerSettings;
  legacyProtocolVersions: readonly string[];
  factory: McpServerFactory;
  calls: RecordedCall[];
}

export function settingsFromEnv(overrides: Partial<ServerSettings> = {}): ServerSettings {
  const countText = process.env.STRATOS_TEST_TOOL_COUNT;
  const parsedCount = countText === undefined || countText === '' ? 500 : Number(countText);
  if (!Number.isInteger(parsedCount) || parsedCount < 0) {
    throw new Error(
      `STRATOS_TEST_TOOL_COUNT must be a non-negative integer, got ${JSON.stringify(countText)}`,
    );
  }
  return {
    schemaFile:
      'schemaFile' in overrides ? overrides.schemaFile : process.env.STRATOS_TEST_SCHEMA_FILE || undefined,
    toolCount: overrides.toolCount ?? parsedCount,
  };
}

/** A recorder appending JSON lines (`{"event":"start"|"finish", ...call}`) synchronously to `file`. */
export function fileRecorder(file: string): CallRecorder {
  const write = (event: string, call: RecordedCall): void => {
    appendFileSync(file, `${JSON.stringify({event, ...call})}\n`);
  };
  return {start: (call) => write('start', call), finish: (call) => write('finish', call)};
}

type Ajv = {compile(schema: object): ValidateFunction};
type ValidateFunction = ((data: unknown) => boolean) & {
  errors?: Array<{instancePath?: string; message?: string}> | null;
};
const AjvClass = ((AjvModule as unknown as {default?: unknown}).default ?? AjvModule) as new (
  options: object,
) => Ajv;
const ajv = new AjvClass({strict: false, allErrors: true});
const validators = new WeakMap<object, ValidateFunction>();

function validateInput(tool: ToolDefinition, args: JsonObject): string | undefined {
  let validate = validators.get(tool.inputSchema);
  if (validate === undefined) {
    validate = ajv.compile(tool.inputSchema);
    validators.set(tool.inputSchema, validate);
  }
  if (validate(args)) return undefined;
  return (validate.errors ?? [])
    .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
    .join('; ');
}

/** The tools/list entry; schemas are passed through by reference, unchanged. */
function toolListEntry(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : {title: tool.title}),
    ...(tool.description === undefined ? {} : {description: tool.description}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : {outputSchema: tool.outputSchema}),
    ...(tool.annotations === undefined ? {} : {annotations: tool.annotations}),
  } as unknown as Tool;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Creates the shared host and the per-instance factory for the named test server. */
export function createServerHost(name: string, options: HostOptions): ServerHost {
  const definition = getServerDefinition(name);
  const mode = options.mode ?? 'both';
  const legacyProtocolVersions = options.legacyProtocolVersions ?? DEFAULT_LEGACY_PROTOCOL_VERSIONS;
  const recorders = options.recorders ?? [];
  const calls: RecordedCall[] = [];
  const settings = (): ServerSettings => settingsFromEnv(options.settings);

  const supportedVersions = (era: Era): string[] => {
    if (era === 'modern') return [MODERN_PROTOCOL_VERSION];
    // A legacy instance never lists 2026-07-28, so it registers no server/discover handler and
    // behaves like a 2025-era server: only initialize opens a connection.
    return [...legacyProtocolVersions];
  };

  const factory: McpServerFactory = (ctx: McpRequestContext) => {
    const server = new Server(
      {
        name: definition.name,
        ...(definition.title ? {title: definition.title} : {}),
        version: definition.version,
      },
      {
        capabilities: {tools: {}},
        supportedProtocolVersions: supportedVersions(ctx.era),
        ...(definition.instructions ? {instructions: definition.instructions} : {}),
      },
    );
    if (options.onerror) server.onerror = options.onerror;

    server.setRequestHandler('tools/list', () => ({
      tools: definition.tools(settings()).map(toolListEntry),
    }));

    server.setRequestHandler('tools/call', async (request, requestCtx) => {
      const toolName = request.params.name;
      const args = (request.params.arguments ?? {}) as JsonObject;
      const tool = definition.tools(settings()).find((candidate) => candidate.name === toolName);
      if (tool === undefined) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${toolName}`);
      }
      const invalid = validateInput(tool, args);
      if (invalid !== undefined) {
        return {
          content: [{type: 'text', text: `Invalid arguments for tool ${toolName}: ${invalid}`}],
          isError: true,
        };
      }
      const protocolVersion = server.getNegotiatedProtocolVersion();
      const call: RecordedCall = {
        seq: calls.length + 1,
        server: definition.name,
        tool: toolName,
        arguments: args,
        transport: options.transport,
        era: ctx.era,
        protocolVersion,
        sessionId: requestCtx.sessionId,
        pid: process.pid,
        startedAt: Date.now(),
        status: 'running',
      };
      calls.push(call);
      for (const recorder of recorders) recorder.start(call);
      const signal = requestCtx.mcpReq.signal;
      try {
        const result = await tool.handler(args, {signal, era: ctx.era, protocolVersion, seq: call.seq});
        call.status = result.isError ? 'tool-error' : 'ok';
        // Era projection done by the SDK codec (what McpServer does internally): identity on 2026-07-28
        // for object content; on 2025-era instances a non-object structuredContent / output schema root
        // is wrapped as {result: value}, matching the wrapped schema the 2025 codec sends in tools/list.
        return server.projectCallToolResult(result as CallToolResult, tool.outputSchema);
      } catch (error) {
        if (signal.aborted) {
          call.status = 'cancelled';
          call.error = errorMessage(signal.reason ?? error);
        } else {
          call.status = 'failed';
          call.error = errorMessage(error);
        }
        throw error;
      } finally {
        call.finishedAt = Date.now();
        for (const recorder of recorders) recorder.finish(call);
      }
    });
    return server;
  };

  return {definition, mode, settings, legacyProtocolVersions, factory, calls};
}
