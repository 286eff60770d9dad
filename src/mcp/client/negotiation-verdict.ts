/**
 * Remembered protocol verdicts. `auto` negotiation probes every connect (on stdio it spawns a throwaway server
 * first, doubling connect time for legacy servers). The verdict a connect reached (a build's discovery or a run's
 * connect) is kept in `generated/mcp-negotiation.json` of the workflow, a file this module alone writes, and handed
 * to later connects as the SDK's `prior`, so they skip the probe. A verdict names the transport it was reached with
 * and is used only while that transport is configured; one that no longer works falls back to a fresh `auto`
 * connect. The build deletes the file when the workflow's server configuration changes; nothing else does.
 */
import {lstat, rm} from 'node:fs/promises';
import {join} from 'node:path';
import {writeFileAtomic} from '../../internal/atomic-write.ts';
import {isRecord, readJsonFile} from '../../internal/json-file.ts';

/** What a connect concluded: the SDK's `PriorDiscovery` shape plus the transport it belongs to. */
export type McpNegotiationVerdict =
  | {kind: 'legacy'; identity: string; protocolVersion?: string}
  | {kind: 'modern'; identity: string; protocolVersion?: string; discover: Record<string, unknown>};

/** Verdicts by `mcp.servers` key. */
export type McpNegotiationVerdicts = Record<string, McpNegotiationVerdict>;

/** The file of a workflow's remembered verdicts (inside `generated/`, which Stratos owns). */
export function negotiationVerdictFile(directory: string): string {
  return join(directory, 'generated', 'mcp-negotiation.json');
}

const cache = new Map<string, Promise<McpNegotiationVerdicts>>();

/** The verdicts remembered for the workflow in `directory`; empty when there are none. Read once per process. */
export function readRememberedVerdicts(directory: string): Promise<McpNegotiationVerdicts> {
  let verdicts = cache.get(directory);
  if (verdicts === undefined) {
    verdicts = readVerdictFile(directory);
    cache.set(directory, verdicts);
  }
  return verdicts;
}

async function readVerdictFile(directory: string): Promise<McpNegotiationVerdicts> {
  const content = await readJsonFile(negotiationVerdictFile(directory)).catch(() => undefined);
  return parseVerdicts(isRecord(content) ? content.verdicts : undefined);
}

/**
 * Remembers the verdict a connect reached for `server`, so later connects skip the probe. Best effort: a failed
 * write only means the next connect probes again. Nothing is written when `generated/` does not exist yet (a
 * build creates it with the wrappers) or is a symbolic link. Concurrent writers each write a whole file (atomic rename); at
 * worst one's new verdict is lost and probed again.
 */
export async function rememberVerdict(
  directory: string,
  server: string,
  verdict: McpNegotiationVerdict,
): Promise<void> {
  try {
    // Never through a link: generated/ must be the workflow's own folder and the file a plain file.
    const file = negotiationVerdictFile(directory);
    const [folder, existing] = await Promise.all([
      lstat(join(directory, 'generated')).catch(() => undefined),
      lstat(file).catch(() => undefined),
    ]);
    if (folder?.isDirectory() !== true || (existing !== undefined && !existing.isFile())) return;
    const verdicts = await readVerdictFile(directory);
    if (JSON.stringify(verdicts[server]) === JSON.stringify(verdict)) return;
    verdicts[server] = verdict;
    const sorted = Object.fromEntries(Object.entries(verdicts).sort(([a], [b]) => (a < b ? -1 : 1)));
    await writeFileAtomic(file, `${JSON.stringify({format: 1, verdicts: sorted}, null, 2)}\n`);
    cache.set(directory, Promise.resolve(sorted));
  } catch {
    // Remembering is an optimization; the connection itself already succeeded.
  }
}

/** Forgets every verdict of the workflow: the build calls it when the server configuration changed. */
export async function forgetVerdicts(directory: string): Promise<void> {
  cache.delete(directory);
  await rm(negotiationVerdictFile(directory), {force: true});
}

/** Keeps only well-formed verdicts from untrusted JSON. */
export function parseVerdicts(value: unknown): McpNegotiationVerdicts {
  const verdicts: McpNegotiationVerdicts = {};
  if (!isRecord(value)) return verdicts;
  for (const [server, verdict] of Object.entries(value)) {
    if (!isRecord(verdict) || typeof verdict.identity !== 'string') continue;
    const version =
      typeof verdict.protocolVersion === 'string' ? {protocolVersion: verdict.protocolVersion} : {};
    if (verdict.kind === 'legacy')
      verdicts[server] = {kind: 'legacy', identity: verdict.identity, ...version};
    else if (verdict.kind === 'modern' && isRecord(verdict.discover))
      verdicts[server] = {kind: 'modern', identity: verdict.identity, ...version, discover: verdict.discover};
  }
  return verdicts;
}
