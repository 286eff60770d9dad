/**
 * Builds one workflow: manifest check, shared SDK, ignore rules, dependencies, freshness, compile, contract check
 * and schema export. A successful build writes its record last; a failed one leaves no record behind, so an old
 * artifact is never used in its place.
 */
import {existsSync} from 'node:fs';
import {rm} from 'node:fs/promises';
import {basename, join} from 'node:path';
import {checkWorkflowContract, collectUnresolvedRefs, exportJsonSchemas} from '../contract/index.ts';
import {type WorkflowHandle, writeManifestCache} from '../discovery/index.ts';
import type {Diagnostic} from '../errors/index.ts';
import {hasErrors, isStratosError, StratosError} from '../errors/index.ts';
import {packageVersion} from '../internal/package-info.ts';
import {type BuildRecord, readBuildRecord, removeBuildRecord, writeBuildRecord} from './build-record.ts';
import {BuildSession} from './build-session.ts';
import {prepareChildren} from './child-preparation.ts';
import {compilerVersion, compileTypeScript} from './compiler.ts';
import {computeBuildKey} from './freshness.ts';
import {ensureIgnoreRules, findTrackedGeneratedFiles} from './ignore-rules.ts';
import {loadWorkflowDefinition} from './load-definition.ts';
import {locateSchemaField} from './locate-schema-field.ts';
import type {McpPreparation, McpPreparationOptions} from './mcp-preparation.ts';
import {ensureSharedSdk} from './shared-sdk.ts';
import {prepareWorkflowPackage} from './workflow-package.ts';
import {resolveWorkflowPaths} from './workflow-paths.ts';

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

async function buildOne(
  handle: WorkflowHandle,
  options: BuildWorkflowOptions,
  session: BuildSession,
  chain: readonly string[],
): Promise<WorkflowBuildResult> {
  const started = performance.now();
  const diagnostics: Diagnostic[] = [...handle.diagnostics];
  const finish = (status: WorkflowBuildResult['status'], record?: BuildRecord): WorkflowBuildResult => ({
    name: handle.name,
    directory: handle.directory,
    status,
    diagnostics,
    ...(record === undefined ? {} : {record}),
    durationMs: Math.round(performance.now() - started),
  });
  if (handle.manifest === undefined || hasErrors(diagnostics)) return finish('failed');
  const paths = resolveWorkflowPaths(handle);
  const progress = (step: BuildStep, message: string) =>
    options.onProgress?.({workflow: handle.name, step, message});
  try {
    if (!existsSync(paths.entrypoint)) {
      // Prepare before writing calls: an explicit build of a manifest with MCP servers generates their wrappers
      // and reports that, without compiling or recording a workflow build.
      if (options.explicit === true && Object.keys(handle.manifest.mcp?.servers ?? {}).length > 0) {
        await ensureSharedSdk(paths.root);
        await ensureIgnoreRules(handle.root);
        const mcp = await prepareMcp(handle, paths, {
          explicit: true,
          onNotice: options.onNotice,
          signal: options.signal,
          onDiscover: (server) => progress('discover', `discovering the tools of MCP server '${server}'`),
        });
        diagnostics.push(...mcp.diagnostics);
        return finish(hasErrors(mcp.diagnostics) ? 'failed' : 'prepared');
      }
      diagnostics.push({
        code: 'STRATOS_BUILD_ENTRYPOINT_MISSING',
        severity: 'error',
        message: `The entrypoint ${paths.entrypoint} does not exist. Write it (export default workflow({...})) or set 'entrypoint' in workflow.yaml.`,
        location: await handle.locate(['entrypoint']),
      });
      return finish('failed');
    }
    await ensureSharedSdk(paths.root);
    await ensureIgnoreRules(handle.root);
    const pkg = await prepareWorkflowPackage(paths, () => progress('install', 'installing npm dependencies'));
    diagnostics.push(...pkg.diagnostics);
    const mcp = await prepareMcp(handle, paths, {
      explicit: options.explicit === true,
      onNotice: options.onNotice,
      signal: options.signal,
      onDiscover: (server) => progress('discover', `discovering the tools of MCP server '${server}'`),
    });
    diagnostics.push(...mcp.diagnostics);
    if (hasErrors(mcp.diagnostics)) return finish('failed');
    const children = await prepareChildren(handle, paths, session, chain);
    diagnostics.push(...children.diagnostics);
    if (hasErrors(children.diagnostics)) return finish('failed');
    const key = await computeBuildKey({
      directory: paths.directory,
      extra: {...mcp.keyInputs, ...children.keyInputs},
    });
    const previous = await readBuildRecord(paths.buildRecord);
    if (
      options.force !== true &&
      previous?.key === key &&
      previous.compiledEntrypoint === paths.compiledEntrypoint &&
      existsSync(previous.compiledEntrypoint)
    ) {
      const kept = usesMcp(handle)
        ? await (await import('./mcp-preparation.ts')).keepMcpVerdicts(
            paths.buildRecord,
            previous,
            mcp.verdicts,
          )
        : previous;
      return finish('reused', kept);
    }
    await removeBuildRecord(paths.buildRecord);
    await rm(paths.dist, {recursive: true, force: true});
    progress('compile', 'compiling TypeScript');
    const compiled = await compileTypeScript({
      rootDir: paths.root,
      outDir: paths.dist,
      files: [paths.entrypoint],
    });
    diagnostics.push(...compiled.diagnostics);
    if (!compiled.ok || hasErrors(diagnostics)) {
      await rm(paths.dist, {recursive: true, force: true});
      return finish('failed');
    }
    progress('check', 'checking the input and output schemas');
    const definition = await loadWorkflowDefinition(paths.compiledEntrypoint, handle.name, paths.entrypoint);
    const contract = await Promise.all(
      checkWorkflowContract(definition).map(async (d) => ({
        ...d,
        location: d.location ?? (await locateSchemaField(paths.entrypoint, d.path)),
      })),
    );
    diagnostics.push(...contract);
    if (hasErrors(contract)) return finish('failed');
    const schemas = exportJsonSchemas(definition);
    const unresolved = [...collectUnresolvedRefs(schemas.input), ...collectUnresolvedRefs(schemas.output)];
    if (unresolved.length > 0) {
      throw new StratosError(
        'STRATOS_INTERNAL',
        `The exported JSON Schema of '${handle.name}' has references that do not resolve: ${unresolved.join(', ')}.`,
      );
    }
    diagnostics.push(...(await findTrackedGeneratedFiles(paths.root, basename(paths.directory))));
    const record: BuildRecord = {
      format: 1,
      key,
      sdkVersion: packageVersion(),
      compilerVersion: compilerVersion(),
      builtAt: new Date().toISOString(),
      compiledEntrypoint: paths.compiledEntrypoint,
      schemas: schemas as BuildRecord['schemas'],
      ...(Object.keys(mcp.verdicts).length === 0 ? {} : {mcp: {verdicts: mcp.verdicts}}),
    };
    await writeBuildRecord(paths.buildRecord, record);
    await writeManifestCache(handle.directory, handle.manifestHash, {
      manifest: handle.manifest,
      diagnostics: handle.diagnostics,
    });
    return finish('built', record);
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

const noMcp: McpPreparation = {diagnostics: [], keyInputs: {}, prepared: [], verdicts: {}};

function usesMcp(handle: WorkflowHandle): boolean {
  return Object.keys(handle.manifest?.mcp?.servers ?? {}).length > 0;
}

/** MCP preparation, loaded only for workflows that configure servers (or an explicit build that may clean some). */
async function prepareMcp(
  handle: WorkflowHandle,
  paths: ReturnType<typeof resolveWorkflowPaths>,
  options: McpPreparationOptions,
): Promise<McpPreparation> {
  if (!usesMcp(handle) && !(options.explicit && existsSync(join(paths.generated, 'mcp')))) return noMcp;
  return (await import('./mcp-preparation.ts')).prepareMcpWrappers(handle, paths, options);
}
