/**
 * In-process API of the Stratos MCP test servers.
 *
 * ```ts
 * const server = await startMcpHttpServer('schemas', {mode: 'modern'});
 * // connect a client to server.url ... then inspect server.calls
 * await server.close();
 * ```
 */
import {type ListenOptions, listenHttp} from './http.ts';
import {
  createServerHost,
  DEFAULT_LEGACY_PROTOCOL_VERSIONS,
  fileRecorder,
  MODERN_PROTOCOL_VERSION,
} from './server.ts';
import type {CallRecorder, LegacyHttpStyle, RecordedCall, ServerMode, ServerSettings} from './types.ts';

export type {ChangingVariant} from './definitions.ts';
export {readVariant, SERVER_DEFINITIONS, SERVER_NAMES} from './definitions.ts';
export type {CallRecorder, LegacyHttpStyle, RecordedCall, ServerMode, ServerSettings};
export {createServerHost, DEFAULT_LEGACY_PROTOCOL_VERSIONS, fileRecorder, MODERN_PROTOCOL_VERSION};

/** Absolute path of the CLI entry (`node <SERVE_SCRIPT> <server> --stdio|--http ...`). */
export const SERVE_SCRIPT = new URL('./serve.ts', import.meta.url).pathname;

export interface StartMcpHttpServerOptions {
  mode?: ServerMode;
  /** Port on 127.0.0.1; default 0 (any free port). */
  port?: number;
  /** 2025-era HTTP style: `session` (default, Mcp-Session-Id) or `stateless`. */
  legacyHttp?: LegacyHttpStyle;
  /** Legacy revisions accepted (default 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05). */
  legacyProtocolVersions?: readonly string[];
  /** Overrides STRATOS_TEST_SCHEMA_FILE / STRATOS_TEST_TOOL_COUNT for this server. */
  settings?: Partial<ServerSettings>;
  /** Also append JSON lines to this file (defaults to env STRATOS_TEST_CALL_LOG when set). */
  callLog?: string;
  onerror?: (error: Error) => void;
}

export interface McpHttpTestServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  mode: ServerMode;
  /** Every tools/call served, in arrival order; entries are updated in place when they settle. */
  calls: RecordedCall[];
  close(): Promise<void>;
}

export async function startMcpHttpServer(
  server: string,
  options: StartMcpHttpServerOptions = {},
): Promise<McpHttpTestServer> {
  const mode = options.mode ?? 'both';
  const callLog = options.callLog ?? (process.env.STRATOS_TEST_CALL_LOG || undefined);
  const host = createServerHost(server, {
    transport: 'http',
    mode,
    ...(options.legacyProtocolVersions ? {legacyProtocolVersions: options.legacyProtocolVersions} : {}),
    ...(options.settings ? {settings: options.settings} : {}),
    ...(options.onerror ? {onerror: options.onerror} : {}),
    recorders: callLog ? [fileRecorder(callLog)] : [],
  });
  const listenOptions: ListenOptions = {
    ...(options.port === undefined ? {} : {port: options.port}),
    ...(options.legacyHttp ? {legacyHttp: options.legacyHttp} : {}),
    ...(options.onerror ? {onerror: options.onerror} : {}),
  };
  const endpoint = await listenHttp(host, listenOptions);
  return {url: endpoint.url, mode, calls: host.calls, close: endpoint.close};
}
