/**
 * The steps of a build that does work (build-workflow.ts runs them in order, under the build lock): package,
 * children, compile, contract check, record, and the MCP-only preparation of a workflow without an entrypoint.
 * Loaded only when a build is not reused. Each step adds its findings to the build's diagnostics.
 */
import {checkWorkflowContract, collectUnresolvedRefs, exportJsonSchemas} from '../contract/index.ts';
import {hasErrors, StratosError} from '../errors/index.ts';
import {packageVersion} from '../internal/package-info.ts';
import {buildKeyOf, collectBuildInputs, selectInputFiles} from './build-inputs.ts';
import {type BuildRecord, removeBuildRecord, writeBuildRecord} from './build-record.ts';
import type {BuildSession} from './build-session.ts';
import type {BuildState, WorkflowBuildResult} from './build-workflow.ts';
import {prepareChildren} from './child-preparation.ts';
import {compilerVersion, compileTypeScript} from './compiler.ts';
import {ensureIgnoreRules} from './ignore-rules.ts';
import {loadWorkflowDefinition} from './load-definition.ts';
import {locateSchemaField} from './locate-schema-field.ts';
import {clearDist, findAuthoredInOwnedFolders, recordEmittedFiles} from './owned-files.ts';
import {assertOwnedFile, assertOwnedFolder} from './owned-output.ts';
import {ensureSharedSdk} from './shared-sdk.ts';
import {prepareWorkflowPackage} from './workflow-package.ts';

/**
 * No entrypoint: an explicit build of a manifest with MCP servers generates their wrappers and reports that,
 * without compiling or recording a workflow build; anything else is a missing entrypoint.
 */
export async function prepareWithoutEntrypoint(
  state: BuildState,
): Promise<[WorkflowBuildResult['status'], BuildRecord?]> {
  const {handle, paths, options, diagnostics} = state;
  if (options.explicit === true && Object.keys(handle.manifest.mcp?.servers ?? {}).length > 0) {
    await ensureSharedSdk(paths.root);
    diagnostics.push(...(await ensureIgnoreRules(state.handle.root)));
    const {prepareMcpWrappers} = await import('./mcp-preparation.ts');
    const mcp = await prepareMcpWrappers(handle, paths, {
      explicit: true,
      onNotice: options.onNotice,
      signal: options.signal,
      onDiscover: (server) => state.progress('discover', `discovering the tools of MCP server '${server}'`),
    });
    diagnostics.push(...mcp.diagnostics);
    return [hasErrors(mcp.diagnostics) ? 'failed' : 'prepared'];
  }
  diagnostics.push({
    code: 'STRATOS_BUILD_ENTRYPOINT_MISSING',
    severity: 'error',
    message: `The entrypoint ${paths.entrypoint} does not exist. Write it (export default workflow({...})) or set 'entrypoint' in workflow.yaml.`,
    location: await handle.locate(['entrypoint']),
  });
  return ['failed'];
}

/** Package: the root's shared SDK links and ignore rules, the workflow's package.json and its installs. */
export async function preparePackage(state: BuildState): Promise<void> {
  const {paths} = state;
  await ensureSharedSdk(paths.root);
  state.diagnostics.push(...(await ensureIgnoreRules(state.handle.root)));
  const pkg = await prepareWorkflowPackage(paths, () =>
    state.progress('install', 'installing npm dependencies'),
  );
  state.diagnostics.push(...pkg.diagnostics);
}

/** Children: each referenced child built first; undefined when one failed. */
export async function prepareChildWorkflows(
  state: BuildState,
  session: BuildSession,
  chain: readonly string[],
): Promise<{name: string; directory: string}[] | undefined> {
  const children = await prepareChildren(state.handle, state.paths, session, chain);
  state.diagnostics.push(...children.diagnostics);
  return hasErrors(children.diagnostics) ? undefined : children.children;
}

/**
 * Compile: the old record and what the last compile wrote into dist/ go first (a file Stratos did not write stays),
 * then tsc; the files it read, or undefined on failure. A file the compiler read from a folder Stratos owns that
 * Stratos did not write fails the build.
 */
export async function compileWorkflow(state: BuildState): Promise<string[] | undefined> {
  const {paths} = state;
  await assertOwnedFolder(paths.directory, paths.dist);
  await removeBuildRecord(paths.buildRecord);
  clearDist(paths.dist);
  state.progress('compile', 'compiling TypeScript');
  const compiled = await compileTypeScript({
    rootDir: paths.root,
    outDir: paths.dist,
    files: [paths.entrypoint],
  });
  if (compiled.emitted.length > 0) await recordEmittedFiles(paths.dist, compiled.emitted);
  state.diagnostics.push(...compiled.diagnostics, ...findAuthoredInOwnedFolders(paths, compiled.files));
  if (!compiled.ok || hasErrors(state.diagnostics)) {
    clearDist(paths.dist);
    return undefined;
  }
  return compiled.files;
}

/** Contract check: load the compiled module, check its schemas, export them as JSON Schema. */
export async function checkContract(state: BuildState): Promise<BuildRecord['schemas'] | undefined> {
  const {handle, paths} = state;
  state.progress('check', 'checking the input and output schemas');
  const definition = await loadWorkflowDefinition(paths.compiledEntrypoint, handle.name, paths.entrypoint);
  const contract = await Promise.all(
    checkWorkflowContract(definition).map(async (d) => ({
      ...d,
      location: d.location ?? (await locateSchemaField(paths.entrypoint, d.path)),
    })),
  );
  state.diagnostics.push(...contract);
  if (hasErrors(contract)) return undefined;
  const schemas = exportJsonSchemas(definition);
  const unresolved = [...collectUnresolvedRefs(schemas.input), ...collectUnresolvedRefs(schemas.output)];
  if (unresolved.length > 0) {
    throw new StratosError(
      'STRATOS_INTERNAL',
      `The exported JSON Schema of '${handle.name}' has references that do not resolve: ${unresolved.join(', ')}.`,
    );
  }
  return schemas as BuildRecord['schemas'];
}

export interface RecordFacts {
  files: readonly string[];
  schemas: BuildRecord['schemas'];
  direct: readonly string[];
  children: {name: string; directory: string}[];
  startedAt: number;
  sdk: string;
  mcpServers: string | undefined;
}

/** Record: the inputs the build was made from, written last. */
export async function writeRecord(state: BuildState, facts: RecordFacts): Promise<BuildRecord> {
  const {handle, paths} = state;
  const inputs = await collectBuildInputs({
    paths,
    manifest: handle.manifest,
    files: selectInputFiles(paths, facts.files, facts.sdk),
    directServers: facts.direct,
    children: facts.children,
    startedAt: facts.startedAt,
  });
  const record: BuildRecord = {
    format: 2,
    key: buildKeyOf(inputs, paths.compiledEntrypoint),
    sdkVersion: packageVersion(),
    compilerVersion: compilerVersion(),
    builtAt: new Date().toISOString(),
    compiledEntrypoint: paths.compiledEntrypoint,
    schemas: facts.schemas,
    inputs,
    ...(facts.mcpServers === undefined ? {} : {mcpServers: facts.mcpServers}),
  };
  await assertOwnedFile(paths.directory, paths.buildRecord);
  await writeBuildRecord(paths.buildRecord, record);
  return record;
}
