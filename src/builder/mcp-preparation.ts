/**
 * MCP wrapper preparation inside a build (specification "MCP wrapper generation and storage", "Build-time
 * freshness"). An explicit build rediscovers every configured server and rewrites generated/mcp/<server>.ts;
 * preparation for run, describe and schema generates the wrappers of directly used servers that are missing or
 * whose configuration changed since the last build, and reuses current ones. A discovery failure fails the build
 * and removes that server's wrapper, so a stale wrapper never stands in for a failed discovery. Wrappers are
 * compiler inputs, so they join the build key; so does the configuration of each directly used server.
 */
import {existsSync} from 'node:fs';
import {mkdir, readdir, readFile, rm} from 'node:fs/promises';
import {join} from 'node:path';
import type {WorkflowHandle} from '../discovery/index.ts';
import type {Diagnostic} from '../errors/index.ts';
import {isStratosError, StratosError} from '../errors/index.ts';
import {writeFileAtomic} from '../internal/atomic-write.ts';
import {discoverMcpTools} from '../mcp/client/index.ts';
import {generateWrapperSource, wrapperFileName} from '../mcp/codegen/index.ts';
import {hashMcpConfigs} from './build-inputs.ts';
import {detectDirectMcpUsage} from './direct-usage.ts';
import {hasGeneratedHeader} from './owned-files.ts';
import {assertOwnedFile, assertOwnedFolder} from './owned-output.ts';
import type {WorkflowPaths} from './workflow-paths.ts';

export interface McpPreparationOptions {
  /** An explicit `stratos build`: rediscover and regenerate every configured server. */
  explicit: boolean;
  /** Configuration hashes of the directly used servers at the last build (its record's inputs). */
  previous?: Record<string, string> | undefined;
  /** Notices for the person at the terminal, such as a sign-in URL during discovery. */
  onNotice?: ((message: string) => void) | undefined;
  signal?: AbortSignal | undefined;
  /** Called as the discovery of one server starts (a long step: the CLI shows it as progress). */
  onDiscover?: ((server: string) => void) | undefined;
}

export interface McpPreparation {
  diagnostics: Diagnostic[];
  /** Servers workflow code uses directly: their configuration is part of the build key. */
  direct: string[];
  /** Servers whose wrappers this preparation discovered and wrote. */
  prepared: string[];
}

export async function prepareMcpWrappers(
  handle: WorkflowHandle,
  paths: WorkflowPaths,
  options: McpPreparationOptions,
): Promise<McpPreparation> {
  const servers = handle.manifest?.mcp?.servers ?? {};
  const names = Object.keys(servers);
  const wrapperDirectory = join(paths.generated, 'mcp');
  await assertOwnedFolder(paths.directory, wrapperDirectory);
  if (names.length > 0) await mkdir(wrapperDirectory, {recursive: true});
  const diagnostics: Diagnostic[] = [];
  if (options.explicit) await removeUnconfiguredWrappers(wrapperDirectory, names);
  const direct = existsSync(paths.entrypoint)
    ? await detectDirectMcpUsage({directory: paths.directory, entrypoint: paths.entrypoint, servers: names})
    : [];
  // A wrapper path that is a folder or a link is refused before anything is discovered or written.
  for (const server of direct)
    await assertOwnedFile(paths.directory, join(wrapperDirectory, wrapperFileName(server)));
  const current = handle.manifest === undefined ? {} : hashMcpConfigs(handle.manifest, direct);
  const targets = options.explicit
    ? names
    : direct.filter(
        (server) =>
          !existsSync(join(wrapperDirectory, wrapperFileName(server))) ||
          (options.previous?.[server] !== undefined && options.previous[server] !== current[server]),
      );
  const prepared: string[] = [];
  await Promise.all(
    targets.map(async (server) => {
      options.onDiscover?.(server);
      const config = servers[server]!;
      const file = join(wrapperDirectory, wrapperFileName(server));
      await assertOwnedFile(paths.directory, file);
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
        prepared.push(server);
      } catch (error) {
        if (!isStratosError(error)) throw generatedPathError(file, error);
        if (hasGeneratedHeader(file)) await rm(file, {force: true});
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
  return {diagnostics, direct, prepared: prepared.sort()};
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

/**
 * An explicit build removes wrappers of servers no longer in mcp.servers (their imports then fail to compile); a
 * `.ts` file without the wrapper header is not Stratos's and stays.
 */
async function removeUnconfiguredWrappers(folder: string, servers: readonly string[]): Promise<void> {
  const keep = new Set(servers.map((server) => `${server}.ts`));
  const entries = await readdir(folder).catch(() => [] as string[]);
  const unconfigured = entries.filter((entry) => entry.endsWith('.ts') && !keep.has(entry));
  // Checked all first: a folder named like a wrapper refuses the build before anything is deleted.
  for (const entry of unconfigured) await assertOwnedFile(folder, join(folder, entry));
  const removed = unconfigured.filter((entry) => hasGeneratedHeader(join(folder, entry)));
  await Promise.all(removed.map((entry) => rm(join(folder, entry), {force: true})));
}
