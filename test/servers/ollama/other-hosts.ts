/**
 * Evidence that an Ollama agent talks to no other host: one recording server stands in for every hosted endpoint
 * and proxy a harness could use (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, HTTP(S)_PROXY, ALL_PROXY), with canary
 * credentials beside them. It answers nothing useful and records every request and CONNECT tunnel; a test asserts
 * it saw none. The Ollama server itself (127.0.0.1) is exempt from the proxies through NO_PROXY.
 */
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {createHarnessHome, type HarnessHome} from '../models/harness-env.ts';

export interface OtherHosts {
  url: string;
  /** `METHOD url` of every request, `CONNECT host:port` of every tunnel. */
  seen: string[];
  close(): Promise<void>;
}

/** Canary credentials that must reach neither the Ollama server nor any output. */
export const canaryKeys = {
  OPENAI_API_KEY: 'sk-openai-CANARY-ollama-agent',
  CODEX_API_KEY: 'sk-codex-CANARY-ollama-agent',
  ANTHROPIC_API_KEY: 'sk-ant-CANARY-ollama-agent',
};

export async function startOtherHosts(): Promise<OtherHosts> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    request.resume();
    response.writeHead(503, {'content-type': 'application/json'}).end('{"error":"not a host for this test"}');
  });
  server.on('connect', (request, socket) => {
    seen.push(`CONNECT ${request.url}`);
    socket.on('error', () => {});
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A harness home for an Ollama agent: OLLAMA_HOST at the scripted server, every hosted endpoint and proxy at the
 * recording server, canary keys set, and (for OpenCode) XDG folders of its own.
 */
export async function createOllamaHarnessHome(ollamaUrl: string, other: OtherHosts): Promise<HarnessHome> {
  const home = await createHarnessHome({}, {xdg: true});
  Object.assign(home.env, {
    OLLAMA_HOST: ollamaUrl,
    STRATOS_TEST_MODEL_SERVER: ollamaUrl,
    ...canaryKeys,
    OPENAI_BASE_URL: `${other.url}/v1`,
    ANTHROPIC_BASE_URL: other.url,
    HTTP_PROXY: other.url,
    HTTPS_PROXY: other.url,
    ALL_PROXY: other.url,
    http_proxy: other.url,
    https_proxy: other.url,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  });
  return home;
}
