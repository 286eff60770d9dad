/**
 * MCP wrapper preparation inside a build (specification "MCP wrapper generation and storage", "Build-time
 * freshness"). An explicit build rediscovers every configured server and rewrites generated/mcp/<server>.ts;
 * preparation for run, describe and schema generates only the missing wrappers of directly used servers and
 * reuses current ones. A discovery failure fails the build and removes that server's wrapper, so a stale wrapper
 * never stands in for a failed discovery. Wrappers live under generated/, which the build key already hashes.
 */
import {existsSync} from 'node:fs';
import {readdir, readFile, rm} from 'node:fs/promises';
import {join} from 'node:path';
import type {WorkflowHandle} from '../discovery/index.ts';
import type {Diagnostic} from '../errors/index.ts';
import {isStratosError, StratosError} from '../errors/index.ts';
import {writeFileAtomic} from '../internal/atomic-write.ts';
import {
  discoverMcpTools,
  type McpNegotiationVerdicts,
  parseVerdicts,
  transportIdentity,
} from '../mcp/client/index.ts';
import {generateWrapperSource, wrapperFileName} from '../mcp/codegen/index.ts';
import {type BuildRecord, readBuildRecord, writeBuildRecord} from './build-record.ts';
import {detectDirectMcpUsage} from './direct-usage.ts';
import type {WorkflowPaths} from './workflow-paths.ts';

export interface McpPreparationOptions {
  /** An explicit `stratos build`: rediscover and regenerate every configured server. */
  explicit: boolean;
  /** Notices for the person at the terminal, such as a sign-in URL during discovery. */
  onNotice?: ((message: string) => void) | undefined;
  signal?: AbortSignal | undefined;
  /** Called as the discovery of one server starts (a long step: the CLI shows it as progress). */
  onDiscover?: ((server: string) => void) | undefined;
}

export interface McpPreparation {
  diagnostics: Diagnostic[];
  /** Generated wrapper contents (or their hashes) by file name: part of the build key. */
  keyInputs: Record<string, string>;
  /** Servers whose wrappers this preparation discovered and wrote. */
  prepared: string[];
  /** Negotiated protocol verdicts to keep in the build record (fresh ones and still-valid earlier ones). */
  verdicts: McpNegotiationVerdicts;
}

export async function prepareMcpWrappers(
  handle: WorkflowHandle,
  paths: WorkflowPaths,
  options: McpPreparationOptions,
): Promise<McpPreparation> {
  const servers = handle.manifest?.mcp?.servers ?? {};
  const names = Object.keys(servers);
  const wrapperDirectory = join(paths.generated, 'mcp');
  const diagnostics: Diagnostic[] = [];
  if (options.explicit) await removeUnconfiguredWrappers(wrapperDirectory, names);
  const targets = options.explicit
    ? names
    : (
        await detectDirectMcpUsage({directory: paths.directory, entrypoint: paths.entrypoint, servers: names})
      ).filter((server) => !existsSync(join(wrapperDirectory, wrapperFileName(server))));
  const verdicts = await earlierVerdicts(handle, paths);
  const prepared: string[] = [];
  await Promise.all(
    targets.map(async (server) => {
      options.onDiscover?.(server);
      const config = servers[server]!;
      const file = join(wrapperDirectory, wrapperFileName(server));
      try {
        const discovered = await discoverMcpTools({
          server,
          config,
          workflow: handle.name,
          directory: paths.directory,
          ...(options.onNotice === undefined ? {} : {onNotice: options.onNotice}),
          ...(options.signal === undefined ? {} : {signal: options.signal}),
        });
        const source = generateWrapperSource({serverName: server, tools: discovered.tools});
        if ((await readFile(file, 'utf8').catch(() => undefined)) !== source)
          await writeFileAtomic(file, source);
        if (discovered.verdict === undefined) delete verdicts[server];
        else verdicts[server] = discovered.verdict;
        prepared.push(server);
      } catch (error) {
        if (!isStratosError(error)) throw generatedPathError(file, error);
        await rm(file, {force: true});
        delete verdicts[server];
        const location = await handle.locate(['mcp', 'servers', server]);
        diagnostics.push({
          code: error.code === 'STRATOS_MCP_CONNECT_FAILED' ? 'STRATOS_MCP_DISCOVERY_FAILED' : error.code,
          severity: 'error',
          message: `The tools of MCP server '${server}' could not be discovered, so its wrapper was not generated: ${error.message}`,
          location,
        });
      }
    }),
  );
  // Sorted, so the same verdicts always serialize the same way in the build record.
  const sorted = Object.fromEntries(Object.entries(verdicts).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {diagnostics, keyInputs: {}, prepared: prepared.sort(), verdicts: sorted};
}

/** A wrapper that cannot be written where it belongs (a folder or a special file holds its path). */
function generatedPathError(file: string, error: unknown): StratosError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return new StratosError(
    'STRATOS_BUILD_GENERATED_UNWRITABLE',
    `The generated file ${file} cannot be written (${code}): something other than a file Stratos wrote is at that path. Move it away; Stratos regenerates the file.`,
    {cause: error, location: {file}, details: {path: file}},
  );
}

/** Verdicts of the previous build that still describe the configured transport of their server. */
async function earlierVerdicts(
  handle: WorkflowHandle,
  paths: WorkflowPaths,
): Promise<McpNegotiationVerdicts> {
  const servers = handle.manifest?.mcp?.servers ?? {};
  const record = await readBuildRecord(paths.buildRecord);
  const verdicts = parseVerdicts(record?.mcp?.verdicts);
  for (const [server, verdict] of Object.entries(verdicts)) {
    const config = servers[server];
    if (config === undefined || transportIdentity(config, paths.directory) !== verdict.identity)
      delete verdicts[server];
  }
  return verdicts;
}

/** An explicit build removes wrappers of servers no longer in mcp.servers: their imports then fail to compile. */
async function removeUnconfiguredWrappers(folder: string, servers: readonly string[]): Promise<void> {
  const keep = new Set(servers.map((server) => `${server}.ts`));
  const entries = await readdir(folder).catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((entry) => entry.endsWith('.ts') && !keep.has(entry))
      .map((entry) => rm(join(folder, entry), {force: true})),
  );
}

/** A reused build keeps its record; only changed verdicts (a rediscovery reached another one) are rewritten. */
export async function keepMcpVerdicts(
  file: string,
  record: BuildRecord,
  verdicts: McpNegotiationVerdicts,
): Promise<BuildRecord> {
  if (JSON.stringify(record.mcp?.verdicts ?? {}) === JSON.stringify(verdicts)) return record;
  const {mcp: _old, ...rest} = record;
  const updated: BuildRecord = Object.keys(verdicts).length === 0 ? rest : {...rest, mcp: {verdicts}};
  await writeBuildRecord(file, updated);
  return updated;
}
