/**
 * The build key and the one reuse rule that `list`, `build` and `run` share. The key is exactly what changes the
 * compiled output, the wrappers or the contract check: every file the compiler read (the entrypoint, what it
 * imports, generated MCP wrappers and child-workflow wrappers), the workflow's package.json and lock, the
 * configuration of the MCP servers workflow code uses directly, and the compiler, its flags, the SDK and the
 * bridged zod version. Nothing a run alone reads (agent models, effort, prompts, telemetry destinations) is in it,
 * and a file nobody imports (such as a trace file a run writes inside the workflow folder) is not either.
 */
import {existsSync} from 'node:fs';
import {join, sep} from 'node:path';
import {sha256Hex} from '../internal/hash.ts';
import {packageVersion} from '../internal/package-info.ts';
import type {WorkflowManifest} from '../manifest/index.ts';
import type {BuildRecord} from './build-record.ts';
import {type FileStamp, stampFiles, stampsMatch} from './file-stamps.ts';
import {bridgedZodVersion} from './shared-sdk.ts';
import {compilerFlags, compilerVersion} from './toolchain.ts';
import type {WorkflowPaths} from './workflow-paths.ts';

/** What a build was made from, kept in its record so the next check compares without compiling. */
export interface BuildInputs {
  /** When the file stamps were taken (ms since the epoch). */
  hashedAt: number;
  /** Compiler input files outside any node_modules and the SDK, plus the workflow's package.json and lock. */
  files: FileStamp[];
  /** SHA-256 of each directly used MCP server's configuration, by `mcp.servers` key. */
  mcp: Record<string, string>;
  /** Child workflows the entrypoint references: they must be fresh for this build to be. */
  children: {name: string; directory: string}[];
  /** SHA-256 of compiler version, flags, SDK version and zod version. */
  toolchain: string;
}

/** `fresh`: reusable; `stale`: an input changed; `absent`: never built (or the last build failed). */
export type BuildReuse = 'fresh' | 'stale' | 'absent';

export async function hashToolchain(): Promise<string> {
  return sha256Hex(
    JSON.stringify({
      compiler: compilerVersion(),
      flags: compilerFlags,
      sdk: packageVersion(),
      zod: await bridgedZodVersion(),
    }),
  );
}

/** Configuration hashes of `servers` as `manifest` configures them now (`null` for a server no longer there). */
export function hashMcpConfigs(
  manifest: WorkflowManifest,
  servers: readonly string[],
): Record<string, string> {
  const configured = manifest.mcp?.servers ?? {};
  return Object.fromEntries(
    [...servers]
      .sort()
      .map((server) => [
        server,
        configured[server] === undefined ? 'absent' : sha256Hex(JSON.stringify(configured[server])),
      ]),
  );
}

/** The files whose content is a build input: compiler inputs minus installed packages, plus package manifests. */
export function selectInputFiles(
  paths: WorkflowPaths,
  compilerFiles: readonly string[],
  sdk: string,
): string[] {
  const chosen = new Set<string>();
  for (const file of compilerFiles) {
    if (file.includes(`${sep}node_modules${sep}`) || file.startsWith(sdk + sep)) continue;
    chosen.add(file);
  }
  chosen.add(paths.packageJson);
  chosen.add(join(paths.directory, 'package-lock.json'));
  return [...chosen].sort();
}

export interface CollectInputsOptions {
  paths: WorkflowPaths;
  manifest: WorkflowManifest;
  files: readonly string[];
  directServers: readonly string[];
  children: {name: string; directory: string}[];
  /** When the build started: files modified after it are recorded as unknown. */
  startedAt: number;
}

export async function collectBuildInputs(options: CollectInputsOptions): Promise<BuildInputs> {
  const hashedAt = Date.now();
  return {
    hashedAt,
    files: stampFiles(options.files, options.startedAt),
    mcp: hashMcpConfigs(options.manifest, options.directServers),
    children: options.children,
    toolchain: await hashToolchain(),
  };
}

/** The key of a set of inputs: equal keys mean equal compiled output, wrappers and contract check. */
export function buildKeyOf(inputs: BuildInputs, compiledEntrypoint: string): string {
  return sha256Hex(
    JSON.stringify({
      format: 2,
      entrypoint: compiledEntrypoint,
      files: inputs.files.map((stamp) => [stamp.path, stamp.hash]),
      mcp: inputs.mcp,
      children: inputs.children.map((child) => child.name),
      toolchain: inputs.toolchain,
    }),
  );
}

/**
 * The one reuse rule for a workflow's own inputs (children are checked by the caller, see freshness-status.ts):
 * the record is this folder's, its compiled module exists, and every input is unchanged.
 */
export async function checkOwnInputs(
  paths: WorkflowPaths,
  manifest: WorkflowManifest,
  record: BuildRecord | undefined,
): Promise<BuildReuse> {
  // A record copied along with its folder names the other folder's module: it is not this workflow's build.
  if (
    record === undefined ||
    record.compiledEntrypoint !== paths.compiledEntrypoint ||
    !existsSync(record.compiledEntrypoint)
  ) {
    return 'absent';
  }
  const {inputs} = record;
  if (inputs.toolchain !== (await hashToolchain())) return 'stale';
  const current = hashMcpConfigs(manifest, Object.keys(inputs.mcp));
  if (JSON.stringify(current) !== JSON.stringify(inputs.mcp)) return 'stale';
  return stampsMatch(inputs.files, inputs.hashedAt) ? 'fresh' : 'stale';
}
