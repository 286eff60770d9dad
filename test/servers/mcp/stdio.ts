/**
 * Serves a test server over stdio in the requested protocol mode.
 *
 * - `modern`: `serveStdio(factory, {legacy: 'reject'})` — only the 2026-07-28 revision; a 2025-era
 *   `initialize` is answered with the unsupported-protocol-version error.
 * - `both`: `serveStdio(factory)` — the opening message picks the era (server/discover → modern,
 *   initialize → legacy).
 * - `legacy`: a plain `Server` bound to `StdioServerTransport` whose supported versions exclude 2026-07-28;
 *   it has no server/discover handler (answers -32601 Method not found) and needs initialize.
 */
import type {StdioServerHandle} from '@modelcontextprotocol/server/stdio';
import {StdioServerTransport, serveStdio} from '@modelcontextprotocol/server/stdio';
import type {ServerHost} from './server.ts';

export async function serveHostOverStdio(
  host: ServerHost,
  onerror?: (error: Error) => void,
): Promise<StdioServerHandle> {
  if (host.mode === 'legacy') {
    const server = await host.factory({era: 'legacy'});
    const transport = new StdioServerTransport();
    await server.connect(transport);
    return {close: () => server.close()};
  }
  return serveStdio(host.factory, {
    legacy: host.mode === 'modern' ? 'reject' : 'serve',
    ...(onerror ? {onerror} : {}),
  });
}
