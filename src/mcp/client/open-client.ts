/**
 * One MCP client and its transport, opened with automatic version negotiation: a 2026-07-28 server is used
 * without a handshake or HTTP session, a legacy server with `initialize`. The SDK is imported here, lazily, so a
 * workflow that uses no MCP never loads it. `close()` works at every stage, including during `open()`.
 */
import {fileURLToPath} from 'node:url';
import type {Client} from '@modelcontextprotocol/client';
import {redactCredentialSecrets, StratosError} from '../../errors/index.ts';
import {describeError} from '../../internal/describe-error.ts';
import {packageVersion} from '../../internal/package-info.ts';
import {limitOf, limitResponseSize, MAX_MCP_MESSAGE_BYTES, type McpMessageLimit} from './message-limits.ts';
import type {McpNegotiationVerdict} from './negotiation-verdict.ts';
import type {McpTransportSpec} from './resolve-transport.ts';

/** A server-initiated elicitation request handler (used by the conformance client; workflows answer none). */
export type McpElicitationHandler = (params: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface OpenMcpClientOptions {
  /** The `mcp.servers` key, for messages. */
  server: string;
  spec: McpTransportSpec;
  /** Limit of connecting, every attempt together (spawn, probe or `initialize`): see resolveMcpConnectTimeoutMs. */
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
  /** Fires when connecting has used up its time limit; `#startedAt` says how long it really took. */
  #deadline = new AbortController();
  #startedAt = 0;
  /** A message of the server that broke a limit (message-limits.ts), for the request it ended. */
  #limitFailure: {limit: McpMessageLimit; error: unknown} | undefined;

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
   * The limit a server's message broke, when a request failed because of it: over stdio the SDK closes the
   * connection, and every request still open reports it; over HTTP only the one request fails, so it is reported
   * once.
   */
  takeLimitFailure(): {limit: McpMessageLimit; error: unknown} | undefined {
    const failure = this.#limitFailure;
    if (this.#options.spec.kind === 'http') this.#limitFailure = undefined;
    return failure;
  }

  /**
   * Connects. A remembered verdict is tried first; if that connect fails, one fresh `auto` connect follows
   * (connecting has no tool side effects, so this is not a replay of work).
   *
   * @throws StratosError `STRATOS_MCP_CONNECT_FAILED`, `STRATOS_MCP_REQUEST_TIMEOUT`, `STRATOS_MCP_CALL_CANCELLED`.
   */
  async open(): Promise<void> {
    const prior = this.#options.prior?.identity === this.#options.identity ? this.#options.prior : undefined;
    this.#startedAt = performance.now();
    const timer = setTimeout(
      () => this.#deadline.abort(new Error('connect time limit')),
      this.#options.timeoutMs,
    );
    // The SDK does not stop every connect stage on its signal (a version probe): cancellation and the time limit
    // settle open() themselves and close what was started.
    const stop = AbortSignal.any([
      this.#closing.signal,
      this.#deadline.signal,
      ...(this.#options.signal === undefined ? [] : [this.#options.signal]),
    ]);
    let onStop: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      onStop = () => reject(stop.reason);
      if (stop.aborted) onStop();
      else stop.addEventListener('abort', onStop, {once: true});
    });
    stopped.catch(() => {});
    const attempts = this.#openAttempts(prior);
    attempts.catch(() => {});
    try {
      await Promise.race([attempts, stopped]);
    } catch (error) {
      await this.#release();
      throw this.#connectError(error);
    } finally {
      clearTimeout(timer);
      if (onStop !== undefined) stop.removeEventListener('abort', onStop);
    }
  }

  async #openAttempts(prior: McpNegotiationVerdict | undefined): Promise<void> {
    if (prior !== undefined) {
      try {
        await this.#connect(prior);
        return;
      } catch (error) {
        // A server that did not answer in time is not retried: the limit covers every attempt together.
        if (this.#aborted() || this.#deadline.signal.aborted) throw this.#connectError(error);
        await this.#release();
      }
    }
    await this.#connect(undefined);
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
    // The SDK reports a message over a limit here and then ends the request with "Connection closed" (stdio) or
    // a stream error (HTTP): the cause is kept for the error the caller reports.
    client.onerror = (error) => {
      const limit = limitOf(error);
      if (limit !== undefined) this.#limitFailure = {limit, error};
    };
    this.#client = client;
    const transport = await this.#createTransport();
    this.#transport = transport;
    const signals = [
      this.#closing.signal,
      this.#deadline.signal,
      ...(this.#options.signal === undefined ? [] : [this.#options.signal]),
    ];
    const remaining = Math.max(1, this.#options.timeoutMs - (performance.now() - this.#startedAt));
    await client.connect(transport, {
      timeout: Math.ceil(remaining),
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
    if (this.#aborted() || this.#deadline.signal.aborted)
      throw this.#closing.signal.reason ?? this.#deadline.signal.reason;
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
      return new StreamableHTTPClientTransport(new URL(spec.url), {
        requestInit: {headers: spec.headers},
        fetch: limitResponseSize(fetch, (error) => {
          this.#limitFailure = {limit: 'size', error};
        }),
      });
    }
    const {StdioClientTransport} = await import('@modelcontextprotocol/client/stdio');
    // On POSIX the server runs in a process group of its own, ended whole at close (see stdio-launcher.ts).
    const grouped = process.platform !== 'win32';
    const transport = new StdioClientTransport({
      command: grouped ? process.execPath : spec.command,
      args: grouped ? [launcherPath, spec.command, ...spec.args] : spec.args,
      env: spec.env,
      cwd: spec.cwd,
      stderr: 'pipe',
      maxBufferSize: MAX_MCP_MESSAGE_BYTES,
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
        `Connecting to the MCP server '${server}' was cancelled because ${cancelReason(this.#options.signal)}.`,
        {cause: error, details: {server}},
      );
    }
    const message = describeError(error);
    const where = describeTransport(this.#options.spec);
    const stderr = redactStderr(this.#stderr.trim(), this.#options.spec);
    const tail = stderr === '' ? ' It wrote nothing to stderr.' : `\nServer stderr (last lines):\n${stderr}`;
    if (this.#deadline.signal.aborted || (error as {code?: unknown}).code === 'REQUEST_TIMEOUT') {
      const waited = formatSeconds(performance.now() - this.#startedAt);
      return new StratosError(
        'STRATOS_MCP_CONNECT_TIMEOUT',
        `The MCP server '${server}' (${where}) did not answer the connect request within ${formatSeconds(this.#options.timeoutMs)} (waited ${waited}). Check that the command starts an MCP server that speaks JSON-RPC on stdin and stdout (or that the URL is an MCP endpoint).${tail}`,
        {cause: error, details: {server, timeoutMs: this.#options.timeoutMs}},
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

const launcherPath = fileURLToPath(
  new URL(`./stdio-launcher${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
);

function cancelReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  return reason instanceof StratosError
    ? `the command was cancelled (${reason.code})`
    : 'the invocation ended';
}

function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
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
