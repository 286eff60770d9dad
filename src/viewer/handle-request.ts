/**
 * One request to the runs page. Every response sets a strict Content-Security-Policy (scripts and styles of the
 * page's own origin only, no inline script, nothing fetched from elsewhere), `nosniff` and `no-store`.
 * A request is answered only when
 * - its Host is the page's own `127.0.0.1:<port>` or `localhost:<port>` (a rebound DNS name is refused),
 * - its path starts with `/<token>/` (the random per-launch token; compared in constant time),
 * - the rest is a known asset or `api/runs[/<run id>]`; a `..` or `.` segment, an encoded slash or backslash is
 *   refused before routing, and a run id is looked up among the runs in scope, never used as a path.
 */

import {timingSafeEqual} from 'node:crypto';
import type {IncomingMessage, ServerResponse} from 'node:http';
import type {PageAsset} from './page-assets.ts';
import type {RunsCatalog} from './runs-catalog.ts';

export interface RequestContext {
  token: string;
  port: number;
  assets: ReadonlyMap<string, PageAsset>;
  catalog: RunsCatalog;
  /** What the page says about its scope (this directory or every directory). */
  scope: {all: boolean; directory: string};
}

const securityHeaders = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

export async function handleRequest(
  request: IncomingMessage,
  response: ServerResponse,
  context: RequestContext,
): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return send(response, 405, 'Only GET and HEAD are served.', {Allow: 'GET, HEAD'});
  }
  const host = request.headers.host ?? '';
  if (host !== `127.0.0.1:${context.port}` && host !== `localhost:${context.port}`) {
    return send(response, 403, 'Refused: the runs page answers only requests to its own 127.0.0.1 address.');
  }
  const raw = (request.url ?? '').split('?')[0]!;
  const prefix = `/${context.token}/`;
  if (raw.length === prefix.length - 1 && matchesToken(`${raw}/`, prefix)) {
    return send(response, 308, 'The runs page is one folder down.', {Location: prefix});
  }
  if (!matchesToken(raw, prefix)) {
    return send(
      response,
      403,
      'Refused: this address needs the token of the URL that stratos runs open printed.',
    );
  }
  const segments = decodeSegments(raw.slice(prefix.length));
  if (segments === undefined) {
    return send(response, 400, 'Refused: the path leaves the runs page (.., . or an encoded separator).');
  }
  const path = segments.join('/');
  const asset = context.assets.get(path);
  if (asset !== undefined) return send(response, 200, asset.body, {'Content-Type': asset.contentType});
  if (path === 'api/runs') {
    return sendJson(response, {scope: context.scope, runs: await context.catalog.list()});
  }
  if (segments.length === 3 && segments[0] === 'api' && segments[1] === 'runs') {
    const detail = await context.catalog.detail(segments[2]!);
    if (detail === undefined) return send(response, 404, 'No run with this id is shown on this page.');
    return sendJson(response, detail);
  }
  return send(response, 404, 'Not found.');
}

function matchesToken(raw: string, prefix: string): boolean {
  if (raw.length < prefix.length) return false;
  const given = Buffer.from(raw.slice(0, prefix.length));
  const expected = Buffer.from(prefix);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The decoded path segments, or undefined when one would leave the page or hide a separator. */
function decodeSegments(rest: string): string[] | undefined {
  if (rest === '') return [];
  const segments: string[] = [];
  const parts = rest.split('/');
  for (const [index, part] of parts.entries()) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return undefined;
    }
    if (decoded === '..' || decoded === '.' || /[/\\\0]/.test(decoded)) return undefined;
    // An empty segment is only allowed as the trailing slash of a folder-like path.
    if (decoded === '' && index !== parts.length - 1) return undefined;
    if (decoded !== '') segments.push(decoded);
  }
  return segments;
}

function sendJson(response: ServerResponse, value: unknown): void {
  send(response, 200, JSON.stringify(value), {'Content-Type': 'application/json; charset=utf-8'});
}

function send(
  response: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  const payload = typeof body === 'string' && headers['Content-Type'] === undefined ? `${body}\n` : body;
  response.writeHead(status, {
    ...securityHeaders,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(payload)),
    ...headers,
  });
  response.end(response.req.method === 'HEAD' ? undefined : payload);
}
