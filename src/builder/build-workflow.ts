/**
 * Builds one workflow as named steps, under the workflow's build lock: reuse check, package, MCP preparation,
 * children, reuse check again (children may have changed a wrapper), compile, contract check, record. The reuse
 * rule is freshness-status.ts's, the same one `list` shows. A successful build writes its record last; a failed
 * one leaves no record behind, so an old artifact is never used in its place.
 */
import {existsSync} from 'node:fs';
import {basename, join} from 'node:path';
import type {WorkflowDefinition} from '../contract/index.ts';
import {type WorkflowHandle, writeManifestCache} from '../discovery/index.ts';
import type {Diagnostic} from '../errors/index.ts';
import {hasErrors, isStratosError} from '../errors/index.ts';
import {sha256Hex} from '../internal/hash.ts';
import {packageDirectory} from '../internal/package-info.ts';
import type {WorkflowManifest} from '../manifest/index.ts';
import {buildLockPath, withBuildLock} from './build-lock.ts';
import type {BuildRecord} from './build-record.ts';
import {BuildSession} from './build-session.ts';
import {checkReuse} from './freshness-status.ts';
import type {McpPreparation} from './mcp-preparation.ts';
import {assertOwnedFile} from './owned-output.ts';
import {isSharedSdkLinked} from './shared-sdk.ts';
import {resolveWorkflowPaths, type WorkflowPaths} from './workflow-paths.ts';

export type BuildStep = 'install' | 'discover' | 'compile' | 'check';

export interface BuildProgress {
  workflow: string;
  step: BuildStep;
  message: string;
}

export interface BuildWorkflowOptions {
  /** Rebuild even when the build key is unchanged. */
  force?: boolean;
  /** An explicit `stratos build` (as opposed to preparation for run, describe or schema). */
  explicit?: boolean;
  /** Notices for the person at the terminal that need action, such as a sign-in URL during MCP discovery. */
  onNotice?: (message: string) => void;
  onProgress?: (progress: BuildProgress) => void;
  /** Cancels MCP discovery (SIGINT at the CLI); a cancelled build fails. */
  signal?: AbortSignal;
}

export interface WorkflowBuildResult {
  name: string;
  directory: string;
  /** `prepared`: an explicit build without an entrypoint generated MCP wrappers and compiled nothing. */
  status: 'built' | 'reused' | 'prepared' | 'failed';
  diagnostics: Diagnostic[];
  record?: BuildRecord;
  durationMs: number;
}

/** Builds one workflow and, first, the child workflows it references. */
export function buildWorkflow(
  handle: WorkflowHandle,
  options: BuildWorkflowOptions = {},
  session: BuildSession = new BuildSession(options, buildOne),
): Promise<WorkflowBuildResult> {
  return session.build(handle);
}

/** A session that builds with {@link buildWorkflow}'s steps; share one across a project-wide build. */
export function createBuildSession(options: BuildWorkflowOptions = {}): BuildSession {
  return new BuildSession(options, buildOne);
}

/**
 * Builds (or reuses) one workflow and loads its module before releasing the build lock, so a concurrent build
 * never replaces `dist/` while it is being loaded. The result's `definition` is undefined when the build failed.
 */
export async function buildAndLoad(
  handle: WorkflowHandle,
  options: BuildWorkflowOptions = {},
): Promise<{build: WorkflowBuildResult; definition?: WorkflowDefinition}> {
  let definition: WorkflowDefinition | undefined;
  const session = new BuildSession(options, buildOne);
  const build = await buildOne(handle, options, session, [handle.name], async (record, paths) => {
    const {loadWorkflowDefinition} = await import('./load-definition.ts');
    definition = await loadWorkflowDefinition(record.compiledEntrypoint, handle.name, paths.entrypoint);
  });
  return definition === undefined ? {build} : {build, definition};
}

type AfterBuild = (record: BuildRecord, paths: WorkflowPaths) => Promise<void>;

interface BuildState {
  handle: WorkflowHandle & {manifest: WorkflowManifest};
  paths: WorkflowPaths;
  options: BuildWorkflowOptions;
  diagnostics: Diagnostic[];
  progress: (step: BuildStep, message: string) => void;
}

async function buildOne(
  handle: WorkflowHandle,
  options: BuildWorkflowOptions,
  session: BuildSession,
  chain: readonly string[],
  afterBuild?: AfterBuild,
): Promise<WorkflowBuildResult> {
  // process.hrtime, not performance.now(): the global `performance` loads perf_hooks on a no-op build.
  const started = process.hrtime.bigint();
  const diagnostics: Diagnostic[] = [...handle.diagnostics];
  const finish = (status: WorkflowBuildResult['status'], record?: BuildRecord): WorkflowBuildResult => ({
    name: handle.name,
    directory: handle.directory,
    status,
    diagnostics,
    ...(record === undefined ? {} : {record}),
    durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
  });
  const manifest = handle.manifest;
  if (manifest === undefined || hasErrors(diagnostics)) return finish('failed');
  const state: BuildState = {
    handle: {...handle, manifest},
    paths: resolveWorkflowPaths(handle),
    options,
    diagnostics,
    progress: (step, message) => options.onProgress?.({workflow: handle.name, step, message}),
  };
  try {
    await assertOwnedFile(state.paths.root, buildLockPath(state.paths));
    return await withBuildLock(state.paths, async () => {
      const [status, record] = await runSteps(state, session, chain);
      if (record !== undefined && afterBuild !== undefined) await afterBuild(record, state.paths);
      return finish(status, record);
    });
  } catch (error) {
    if (!isStratosError(error)) throw error;
    diagnostics.push({
      code: error.code,
      severity: 'error',
      message: error.message,
      ...(error.location === undefined ? {} : {location: error.location}),
    });
    return finish('failed');
  }
}

type StepsResult = [WorkflowBuildResult['status'], BuildRecord?];

async function runSteps(
  state: BuildState,
  session: BuildSession,
  chain: readonly string[],
): Promise<StepsResult> {
  const {handle, paths, options, diagnostics} = state;
  // Explicit builds check declared local models first (also when the rest is reused): a missing one fails before
  // installs and MCP preparation.
  const {decisions, agents} = handle.manifest;
  if (options.explicit === true && (decisions !== undefined || agents !== undefined)) {
    const declared = await import('../providers/ollama/check-declared-models.ts');
    const locate = (path: string[]) => handle.locate(path);
    const models = [
      ...(decisions === undefined ? [] : await declared.checkDeclaredDecisionModels(decisions, locate)),
      ...(agents === undefined
        ? []
        : await declared.checkDeclaredAgentModels(agents as Record<string, Record<string, unknown>>, locate)),
    ];
    diagnostics.push(...models);
    if (hasErrors(models)) return ['failed'];
  }
  // Step 1, reuse: nothing else is loaded or written when the inputs are unchanged. An explicit build of a
  // workflow with MCP servers always rediscovers them, so it goes through the steps.
  const usesMcp = Object.keys(handle.manifest.mcp?.servers ?? {}).length > 0;
  if (options.force !== true && !(options.explicit === true && usesMcp) && existsSync(paths.entrypoint)) {
    const reused = await reuseIfFresh(state);
    if (reused !== undefined) return ['reused', reused];
  }
  const steps = await import('./build-steps.ts');
  if (!existsSync(paths.entrypoint)) return steps.prepareWithoutEntrypoint(state);
  // Step 2, package: shared SDK links, ignore rules, the workflow's package.json and its installs.
  await steps.preparePackage(state);
  // Step 3, MCP preparation: wrappers of the configured servers.
  const previous = await (await import('./build-record.ts')).readBuildRecord(paths.buildRecord);
  const mcp = await prepareMcp(state, previous);
  if (hasErrors(mcp.diagnostics)) return ['failed'];
  // Step 4, children: built first, their wrappers written into <root>/.generated/.
  const children = await steps.prepareChildWorkflows(state, session, chain);
  if (children === undefined) return ['failed'];
  // Step 5, reuse again: the steps above may have left every input as it was.
  if (options.force !== true && previous !== undefined) {
    const {checkOwnInputs} = await import('./build-inputs.ts');
    if ((await checkOwnInputs(paths, handle.manifest, previous)) === 'fresh') {
      await refreshManifestCache(state);
      return ['reused', previous];
    }
  }
  // Steps 6 to 8: compile, contract check, record.
  const startedAt = Date.now();
  const files = await steps.compileWorkflow(state);
  if (files === undefined || hasErrors(diagnostics)) return ['failed'];
  const schemas = await steps.checkContract(state);
  if (schemas === undefined) return ['failed'];
  diagnostics.push(
    ...(await (
      await import('./ignore-rules.ts')
    ).findTrackedGeneratedFiles(paths.root, basename(paths.directory))),
  );
  const record = await steps.writeRecord(state, {
    files,
    schemas,
    direct: mcp.direct,
    children,
    startedAt,
    sdk: await sdkDirectory(),
    mcpServers: hashServers(handle.manifest),
  });
  await refreshManifestCache(state, true);
  return ['built', record];
}

/** The record when the reuse rule finds the build fresh (and, for a run, the shared SDK still linked). */
async function reuseIfFresh(state: BuildState): Promise<BuildRecord | undefined> {
  const {paths, options, handle} = state;
  const check = await checkReuse(handle);
  if (check.state !== 'fresh' || check.record === undefined) return undefined;
  if (options.explicit === true) {
    // An explicit build also repairs what the root needs; both are cheap when nothing is missing.
    await (await import('./shared-sdk.ts')).ensureSharedSdk(paths.root);
    state.diagnostics.push(...(await (await import('./ignore-rules.ts')).ensureIgnoreRules(handle.root)));
  } else if (!isSharedSdkLinked(paths.root)) {
    return undefined;
  }
  await refreshManifestCache(state);
  return check.record;
}

/**
 * Discovery keeps the validated manifest of the last build for unchanged workflow.yaml bytes. A reused build
 * whose manifest changed only in what runs read (a model, a prompt) records the new bytes' manifest, so later
 * runs skip the YAML parser again.
 */
async function refreshManifestCache(state: BuildState, always = false): Promise<void> {
  const {handle, paths} = state;
  if (!always && handle.manifestCached === true) return;
  const file = join(paths.dist, '.stratos-manifest.json');
  await assertOwnedFile(paths.directory, file);
  await writeManifestCache(handle.directory, handle.manifestHash, {
    manifest: handle.manifest,
    diagnostics: handle.diagnostics,
  });
}

function hashServers(manifest: WorkflowManifest): string | undefined {
  const servers = manifest.mcp?.servers ?? {};
  return Object.keys(servers).length === 0 ? undefined : sha256Hex(JSON.stringify(servers));
}

async function sdkDirectory(): Promise<string> {
  const {realpath} = await import('node:fs/promises');
  return realpath(packageDirectory);
}

/**
 * MCP preparation, loaded only for workflows that configure servers (or an explicit build that may clean some).
 * Also the build's one part in the negotiation verdict file: it is deleted when `mcp.servers` changed.
 */
async function prepareMcp(state: BuildState, previous: BuildRecord | undefined): Promise<McpPreparation> {
  const {handle, paths, options, diagnostics} = state;
  const servers = hashServers(handle.manifest);
  if (previous !== undefined && previous.mcpServers !== servers) {
    await assertOwnedFile(paths.directory, join(paths.generated, 'mcp-negotiation.json'));
    await (await import('../mcp/client/negotiation-verdict.ts')).forgetVerdicts(paths.directory);
  }
  if (servers === undefined && !(options.explicit === true && existsSync(join(paths.generated, 'mcp')))) {
    return {diagnostics: [], direct: [], prepared: []};
  }
  const mcp = await (await import('./mcp-preparation.ts')).prepareMcpWrappers(handle, paths, {
    explicit: options.explicit === true,
    previous: previous?.inputs.mcp,
    onNotice: options.onNotice,
    signal: options.signal,
    onDiscover: (server) => state.progress('discover', `discovering the tools of MCP server '${server}'`),
  });
  diagnostics.push(...mcp.diagnostics);
  return mcp;
}

export type {BuildState};
