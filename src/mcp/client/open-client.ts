/**
 * One MCP client and its transport, opened with automatic version negotiation: a 2026-07-28 server is used
 * without a handshake or HTTP session, a legacy server with `initialize`. The SDK is imported here, lazily, so a
 * workflow that uses no MCP never loads it. `close()` works at every stage, including during `open()`.
 */
import type {Client} from '@modelcontextprotocol/client';
import {redactCredentialSecrets, StratosError} from '../../errors/index.ts';
import {packageVersion} from '../../internal/package-info.ts';
import type {McpNegotiationVerdict} from './negotiation-verdict.ts';
import type {McpTransportSpec} from './resolve-transport.ts';

/** A server-initiated elicitation request handler (used by the conformance client; workflows answer none). */
export type McpElicitationHandler = (params: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface OpenMcpClientOptions {
  /** The `mcp.servers` key, for messages. */
  server: string;
  spec: McpTransportSpec;
  /** Limit of the connect exchange (probe or `initialize`). */
  timeoutMs: number;
  /** Aborts connecting; `close()` aborts it too. */
  signal?: AbortSignal;
  /** A remembered verdict for this server; it is ignored when its identity does not match `identity`. */
  prior?: McpNegotiationVerdict | undefined;
  /** The verdict identity of this transport (see transportIdentity). */
  identity: string;
  elicitation?: McpElicitationHandler;
}

type Transport = Parameters<Client['connect']>[0];

const stderrTailBytes = 4096;

/** An MCP client session: create, `await open()`, use `client`, `close()` (idempotent, never throws). */
export class McpClientSession {
  readonly #options: OpenMcpClientOptions;
  readonly #closing = new AbortController();
  #client: Client | undefined;
  #transport: Transport | undefined;
  #stderr = '';
  #closed: Promise<void> | undefined;
  #verdict: McpNegotiationVerdict | undefined;

  constructor(options: OpenMcpClientOptions) {
    this.#options = options;
  }

  /** Aborted when the session closes: pending requests of this session are cancelled with it. */
  get closingSignal(): AbortSignal {
    return this.#closing.signal;
  }

  get client(): Client {
    if (this.#client === undefined || this.#verdict === undefined) {
      throw new StratosError('STRATOS_INTERNAL', `The MCP client of '${this.#options.server}' is not open.`);
    }
    return this.#client;
  }

  /** The verdict this session's connect reached (to remember it). */
  get verdict(): McpNegotiationVerdict | undefined {
    return this.#verdict;
  }

  get protocolVersion(): string | undefined {
    return this.#client?.getNegotiatedProtocolVersion();
  }

  get transportKind(): 'http' | 'stdio' {
    return this.#options.spec.kind;
  }

  /**
   * Connects. A remembered verdict is tried first; if that connect fails, one fresh `auto` connect follows
   * (connecting has no tool side effects, so this is not a replay of work).
   *
   * @throws StratosError `STRATOS_MCP_CONNECT_FAILED`, `STRATOS_MCP_REQUEST_TIMEOUT`, `STRATOS_MCP_CALL_CANCELLED`.
   */
  async open(): Promise<void> {
    const prior = this.#options.prior?.identity === this.#options.identity ? this.#options.prior : undefined;
    if (prior !== undefined) {
      try {
        await this.#connect(prior);
        return;
      } catch (error) {
        if (this.#aborted()) throw this.#connectError(error);
        await this.#release();
      }
    }
    try {
      await this.#connect(undefined);
    } catch (error) {
      throw this.#connectError(error);
    }
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#closing.abort(new Error(`The MCP connection to '${this.#options.server}' was closed.`));
      await this.#release();
    })();
    return this.#closed;
  }

  async #connect(prior: McpNegotiationVerdict | undefined): Promise<void> {
    const {Client} = await import('@modelcontextprotocol/client');
    if (this.#aborted()) throw this.#closing.signal.reason;
    const client = new Client(
      {name: 'stratos', version: packageVersion()},
      {
        versionNegotiation: {mode: 'auto'},
        ...(this.#options.elicitation === undefined
          ? {}
          : {capabilities: {elicitation: {form: {applyDefaults: true}}}}),
      },
    );
    if (this.#options.elicitation !== undefined) {
      const handler = this.#options.elicitation;
      client.setRequestHandler('elicitation/create', async (request) => {
        return (await handler(request.params as Record<string, unknown>)) as never;
      });
    }
    this.#client = client;
    const transport = await this.#createTransport();
    this.#transport = transport;
    const signals = [
      this.#closing.signal,
      ...(this.#options.signal === undefined ? [] : [this.#options.signal]),
    ];
    await client.connect(transport, {
      timeout: this.#options.timeoutMs,
      signal: AbortSignal.any(signals),
      ...(prior === undefined
        ? {}
        : {
            prior:
              prior.kind === 'legacy'
                ? {kind: 'legacy' as const}
                : {kind: 'modern' as const, discover: prior.discover as never},
          }),
    });
    if (this.#aborted()) throw this.#closing.signal.reason;
    const era = client.getProtocolEra();
    const protocolVersion = client.getNegotiatedProtocolVersion();
    const version = protocolVersion === undefined ? {} : {protocolVersion};
    const discover = client.getDiscoverResult();
    this.#verdict =
      era === 'modern' && discover !== undefined
        ? {
            kind: 'modern',
            identity: this.#options.identity,
            ...version,
            discover: JSON.parse(JSON.stringify(discover)),
          }
        : {kind: 'legacy', identity: this.#options.identity, ...version};
  }

  async #createTransport(): Promise<Transport> {
    const spec = this.#options.spec;
    if (spec.kind === 'http') {
      const {StreamableHTTPClientTransport} = await import('@modelcontextprotocol/client');
      return new StreamableHTTPClientTransport(new URL(spec.url), {requestInit: {headers: spec.headers}});
    }
    const {StdioClientTransport} = await import('@modelcontextprotocol/client/stdio');
    const transport = new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      env: spec.env,
      cwd: spec.cwd,
      stderr: 'pipe',
    });
    // Keep the end of the server's stderr for a failure message; reading it also keeps the pipe from filling.
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-stderrTailBytes);
    });
    return transport;
  }

  #aborted(): boolean {
    return this.#closing.signal.aborted || this.#options.signal?.aborted === true;
  }

  async #release(): Promise<void> {
    const client = this.#client;
    const transport = this.#transport;
    this.#client = undefined;
    this.#transport = undefined;
    this.#verdict = undefined;
    await client?.close().catch(() => {});
    await transport?.close().catch(() => {});
  }

  #connectError(error: unknown): StratosError {
    const server = this.#options.server;
    if (error instanceof StratosError) return error;
    if (this.#aborted()) {
      return new StratosError(
        'STRATOS_MCP_CALL_CANCELLED',
        `Connecting to the MCP server '${server}' was cancelled because the invocation ended.`,
        {cause: error, details: {server}},
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    const where = describeTransport(this.#options.spec);
    const stderr = redactStderr(this.#stderr.trim(), this.#options.spec);
    if ((error as {code?: unknown}).code === 'REQUEST_TIMEOUT') {
      return new StratosError(
        'STRATOS_MCP_REQUEST_TIMEOUT',
        `Connecting to the MCP server '${server}' (${where}) timed out after ${this.#options.timeoutMs} ms.`,
        {cause: error, details: {server}},
      );
    }
    return new StratosError(
      'STRATOS_MCP_CONNECT_FAILED',
      `Connecting to the MCP server '${server}' (${where}) failed: ${message}` +
        (stderr === '' ? '' : `\nServer stderr (last lines):\n${stderr}`),
      {cause: error, details: {server}},
    );
  }
}

/**
 * A server's stderr may echo what it was given: every resolved environment value and header is replaced (with
 * every secret the process knows) before the tail goes into a message.
 */
function redactStderr(text: string, spec: McpTransportSpec): string {
  let result = redactCredentialSecrets(text);
  const values = Object.values(spec.kind === 'http' ? spec.headers : spec.env).filter((v) => v.length >= 6);
  for (const value of values.sort((a, b) => b.length - a.length))
    result = result.split(value).join('[REDACTED]');
  return result;
}

/** The transport without secrets: a URL or a command line (environment values are never shown). */
export function describeTransport(spec: McpTransportSpec): string {
  return spec.kind === 'http' ? spec.url : [spec.command, ...spec.args].join(' ');
}
