/**
 * Which Ollama server a request goes to: an explicit `baseUrl`, else `OLLAMA_HOST` (read the way the Ollama CLI
 * reads it: `host`, `host:port` or a URL; http and port 11434 when omitted), else http://127.0.0.1:11434.
 * The selected endpoint is used or fails: an invalid one never falls through to the next source.
 */
import {StratosError} from '../../errors/index.ts';

export const defaultOllamaUrl = 'http://127.0.0.1:11434';

export interface OllamaEndpoint {
  /** Origin plus any path prefix, without a trailing slash: `http://127.0.0.1:11434`. */
  url: string;
  /** Where it came from, for messages and provider status. */
  source: 'baseUrl' | 'OLLAMA_HOST' | 'default';
}

/**
 * Resolves the endpoint of one client.
 * @throws StratosError STRATOS_OLLAMA_ENDPOINT_INVALID when the selected value is not an http(s) address.
 * @example resolveOllamaEndpoint({env: {OLLAMA_HOST: '127.0.0.1:8080'}}).url // 'http://127.0.0.1:8080'
 */
export function resolveOllamaEndpoint(
  options: {baseUrl?: string; env?: NodeJS.ProcessEnv} = {},
): OllamaEndpoint {
  if (options.baseUrl !== undefined) {
    return {url: parseHost(options.baseUrl, 'baseUrl', true), source: 'baseUrl'};
  }
  const host = (options.env ?? process.env).OLLAMA_HOST?.trim();
  if (host !== undefined && host !== '')
    return {url: parseHost(host, 'OLLAMA_HOST', false), source: 'OLLAMA_HOST'};
  return {url: defaultOllamaUrl, source: 'default'};
}

function parseHost(value: string, source: string, requireScheme: boolean): string {
  const text = value.trim();
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  const fail = (why: string) =>
    new StratosError(
      'STRATOS_OLLAMA_ENDPOINT_INVALID',
      `The Ollama endpoint ${JSON.stringify(value)} from ${source} ${why}; no other endpoint was tried. Set it to an address such as http://127.0.0.1:11434.`,
      {details: {source, value}},
    );
  if (!hasScheme && requireScheme) throw fail('is not an http or https URL');
  let url: URL;
  try {
    url = new URL(hasScheme ? text : `http://${text}`);
  } catch {
    throw fail('cannot be read as a host or URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw fail(`uses ${url.protocol} instead of http or https`);
  if (url.hostname === '') throw fail('has no host');
  if (url.username !== '' || url.password !== '')
    throw fail('carries credentials, which Ollama does not use');
  // Ollama's own default port applies when the value names none and has no scheme (OLLAMA_HOST=127.0.0.1).
  if (!hasScheme && url.port === '') url.port = '11434';
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}
