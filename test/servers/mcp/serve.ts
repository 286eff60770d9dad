/**
 * CLI for the Stratos MCP test servers.
 *
 *   node test/servers/mcp/serve.ts <server> --stdio [--mode modern|legacy|both]
 *   node test/servers/mcp/serve.ts <server> --http [--port 0] [--mode modern|legacy|both]
 *       [--legacy-http session|stateless]
 *
 * Common: [--protocol-versions 2025-06-18,2025-03-26] (legacy revisions accepted).
 * Env: STRATOS_TEST_CALL_LOG (JSON-lines call log), STRATOS_TEST_SCHEMA_FILE (`changing`),
 * STRATOS_TEST_TOOL_COUNT (`large`, default 500).
 *
 * With --http, exactly one line `{"url": "http://127.0.0.1:<port>/mcp"}` is printed to stdout once
 * listening; the server exits on SIGTERM/SIGINT or when stdin closes.
 */
import {fstatSync} from 'node:fs';
import {parseArgs} from 'node:util';
import {SERVER_NAMES} from './definitions.ts';
import {listenHttp} from './http.ts';
import {createServerHost, fileRecorder} from './server.ts';
import {serveHostOverStdio} from './stdio.ts';
import type {LegacyHttpStyle, ServerMode} from './types.ts';

function fail(message: string): never {
  process.stderr.write(`serve.ts: ${message}\n`);
  process.exit(2);
}

const {values, positionals} = parseArgs({
  allowPositionals: true,
  options: {
    stdio: {type: 'boolean', default: false},
    http: {type: 'boolean', default: false},
    port: {type: 'string', default: '0'},
    mode: {type: 'string', default: 'both'},
    'legacy-http': {type: 'string', default: 'session'},
    'protocol-versions': {type: 'string'},
  },
});

const name = positionals[0];
if (name === undefined || !SERVER_NAMES.includes(name))
  fail(`expected a server name: ${SERVER_NAMES.join(', ')}`);
if (values.stdio === values.http) fail('pass exactly one of --stdio or --http');
const mode = values.mode as ServerMode;
if (!['modern', 'legacy', 'both'].includes(mode)) fail(`invalid --mode ${JSON.stringify(values.mode)}`);
const legacyHttp = values['legacy-http'] as LegacyHttpStyle;
if (!['session', 'stateless'].includes(legacyHttp))
  fail(`invalid --legacy-http ${JSON.stringify(legacyHttp)}`);
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`invalid --port ${JSON.stringify(values.port)}`);
const legacyProtocolVersions = values['protocol-versions']?.split(',').filter(Boolean);

const callLog = process.env.STRATOS_TEST_CALL_LOG;
const onerror = (error: Error): void => {
  if (process.env.STRATOS_TEST_MCP_DEBUG) process.stderr.write(`[${name}] ${error.stack ?? error.message}\n`);
};
const host = createServerHost(name, {
  transport: values.stdio ? 'stdio' : 'http',
  mode,
  ...(legacyProtocolVersions ? {legacyProtocolVersions} : {}),
  recorders: callLog ? [fileRecorder(callLog)] : [],
  onerror,
});

if (values.stdio) {
  const handle = await serveHostOverStdio(host, onerror);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    handle.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // The client closing our stdin ends the server (in-flight requests are aborted by the SDK first).
  process.stdin.once('end', () => setTimeout(stop, 50));
} else {
  const endpoint = await listenHttp(host, {port, legacyHttp, onerror});
  process.stdout.write(`${JSON.stringify({url: endpoint.url})}\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    endpoint.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // When stdin is a pipe, a parent that dies (or closes our stdin) takes the server down with it.
  // Other stdin kinds (/dev/null from `stdio: 'ignore'`, a TTY) are not watched.
  if (fstatSync(0, {throwIfNoEntry: false})?.isFIFO()) {
    process.stdin.on('end', stop);
    process.stdin.on('close', stop);
    process.stdin.resume();
  }
}
