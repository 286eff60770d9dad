/**
 * Remembered protocol verdicts. `auto` negotiation probes every connect (on stdio it spawns a throwaway server
 * first, doubling connect time for legacy servers). The verdict a build's discovery reached is kept in the build
 * record and handed to later connects as the SDK's `prior`, so they skip the probe. A remembered verdict that no
 * longer works falls back to a fresh `auto` connect.
 */
import {join} from 'node:path';
import {writeFileAtomic} from '../../internal/atomic-write.ts';
import {isRecord, readJsonFile} from '../../internal/json-file.ts';

/** What a connect concluded: the SDK's `PriorDiscovery` shape plus the transport it belongs to. */
export type McpNegotiationVerdict =
  | {kind: 'legacy'; identity: string; protocolVersion?: string}
  | {kind: 'modern'; identity: string; protocolVersion?: string; discover: Record<string, unknown>};

/** Verdicts by `mcp.servers` key, as stored in the build record's `mcp.verdicts`. */
export type McpNegotiationVerdicts = Record<string, McpNegotiationVerdict>;

// The build record's location (build/workflow-paths.ts); read here without importing the build layer.
const buildRecordPath = (directory: string) => join(directory, 'dist', '.stratos-build.json');

const cache = new Map<string, Promise<McpNegotiationVerdicts>>();

/** The verdicts the workflow's current build recorded; empty when there are none. Read once per process. */
export function readRememberedVerdicts(directory: string): Promise<McpNegotiationVerdicts> {
  let verdicts = cache.get(directory);
  if (verdicts === undefined) {
    verdicts = readJsonFile(buildRecordPath(directory)).then(
      (record) => parseVerdicts(isRecord(record) && isRecord(record.mcp) ? record.mcp.verdicts : undefined),
      () => ({}),
    );
    cache.set(directory, verdicts);
  }
  return verdicts;
}

/**
 * Remembers the verdict a run's connect reached when the build record has none for this transport (wrappers made
 * by a manifest-only build, or a record from before the server changed), so later runs skip the probe too. Only
 * the record's `mcp.verdicts` entry changes; a missing record (no successful build) is left missing. Best effort:
 * a failed write only means the next run probes again.
 */
export async function rememberVerdict(
  directory: string,
  server: string,
  verdict: McpNegotiationVerdict,
): Promise<void> {
  const file = buildRecordPath(directory);
  try {
    const record = await readJsonFile(file);
    if (!isRecord(record)) return;
    const mcp = isRecord(record.mcp) ? record.mcp : {};
    const verdicts = parseVerdicts(mcp.verdicts);
    if (JSON.stringify(verdicts[server]) === JSON.stringify(verdict)) return;
    verdicts[server] = verdict;
    await writeFileAtomic(file, `${JSON.stringify({...record, mcp: {...mcp, verdicts}}, null, 2)}\n`);
    cache.set(directory, Promise.resolve(verdicts));
  } catch {
    // Remembering is an optimization; the connection itself already succeeded.
  }
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
