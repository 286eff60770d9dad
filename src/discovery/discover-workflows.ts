/** Finds workflow folders in the discovery roots. Reads manifests only: never builds, installs or connects. */
import {type Dirent, lstatSync, readdirSync, realpathSync, statSync} from 'node:fs';
import {basename, join, resolve} from 'node:path';
import type {Diagnostic} from '../errors/index.ts';
import {sha256Hex} from '../internal/hash.ts';
import {readRegularFile} from '../internal/regular-file.ts';
import type {ManifestParseResult} from '../manifest/index.ts';
import {MAX_MANIFEST_BYTES, manifestTooLarge} from '../manifest/manifest-limits.ts';
import {readCachedManifest} from './manifest-cache.ts';
import type {DiscoveryOptions, DiscoveryResult, DiscoveryRoot, WorkflowHandle} from './types.ts';

export function discoveryRoots(options: DiscoveryOptions): DiscoveryRoot[] {
  const project = resolve(options.cwd, '.stratos', 'workflows');
  const user = resolve(options.home, 'workflows');
  // Invoked from the folder that holds ~/.stratos itself: one root, not the same root twice.
  return project === user
    ? [{kind: 'user', directory: user}]
    : [
        {kind: 'project', directory: project},
        {kind: 'user', directory: user},
      ];
}

export async function discoverWorkflows(options: DiscoveryOptions): Promise<DiscoveryResult> {
  const roots = discoveryRoots(options);
  const perRoot = await Promise.all(roots.map((root) => readRoot(root)));
  const workflows = perRoot.flatMap((found) => found.workflows);
  const skipped = perRoot.flatMap((found) => found.skipped);
  return {roots, workflows, problems: [...skipped, ...findDuplicateNames(workflows)]};
}

/** The workflows of one root. */
export async function discoverRoot(root: DiscoveryRoot): Promise<WorkflowHandle[]> {
  return (await readRoot(root)).workflows;
}

/**
 * The workflow folders of a root, and a warning for each symbolic link to a workflow folder, which discovery skips:
 * a build writes `dist/` and `generated/` inside the workflow folder, and through a link that would be outside the
 * root (docs/contributing/decision-log.md).
 */
async function readRoot(root: DiscoveryRoot): Promise<{workflows: WorkflowHandle[]; skipped: Diagnostic[]}> {
  // Synchronous reads of a few small files: faster than the promise API's thread-pool round trips (json-file.ts).
  let entries: Dirent[];
  try {
    entries = readdirSync(root.directory, {withFileTypes: true});
  } catch {
    return {workflows: [], skipped: []};
  }
  const candidates = entries.filter((entry) => !entry.name.startsWith('.') && entry.name !== 'node_modules');
  const folders = candidates
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root.directory, entry.name))
    .sort();
  const handles = await Promise.all(folders.map((folder) => readWorkflowFolder(folder, root)));
  const skipped = candidates
    .filter(
      (entry) =>
        entry.isSymbolicLink() && fileSize(join(root.directory, entry.name, 'workflow.yaml')) !== undefined,
    )
    .map((entry) => linkedFolderSkipped(join(root.directory, entry.name), root))
    .sort((a, b) => a.location!.file.localeCompare(b.location!.file));
  return {workflows: handles.filter((handle) => handle !== undefined), skipped};
}

function linkedFolderSkipped(link: string, root: DiscoveryRoot): Diagnostic {
  let target: string;
  try {
    target = realpathSync(link);
  } catch {
    target = link;
  }
  return {
    code: 'STRATOS_WORKFLOW_LINK_SKIPPED',
    severity: 'warning',
    message: `${link} is a symbolic link to the workflow folder ${target}, so discovery skipped it: a build writes dist/ and generated/ inside the workflow folder, which through the link would be outside ${root.directory}. Move or copy the folder into ${root.directory}, or run it by its own path ('stratos run ${target}').`,
    location: {file: join(link, 'workflow.yaml')},
  };
}

/**
 * The handle of one folder, or undefined when it holds no workflow.yaml or is a symbolic link (discovery skips
 * linked folders; a path target is resolved to its real folder first).
 */
export async function readWorkflowFolder(
  directory: string,
  root: DiscoveryRoot,
): Promise<WorkflowHandle | undefined> {
  if (isSymbolicLink(directory)) return undefined;
  const size = fileSize(join(directory, 'workflow.yaml'));
  if (size === undefined) return undefined;
  if (size > MAX_MANIFEST_BYTES) {
    // One hostile manifest among many costs a stat: it is neither read nor hashed nor parsed.
    const diagnostic = manifestTooLarge(join(directory, 'workflow.yaml'), size);
    return {
      name: basename(directory),
      directory,
      root,
      manifestHash: '',
      manifest: undefined,
      diagnostics: [diagnostic],
      locate: async () => diagnostic.location ?? {file: join(directory, 'workflow.yaml'), line: 1, column: 1},
    };
  }
  const bytes = readBytes(join(directory, 'workflow.yaml'));
  const manifestHash = bytes === undefined ? '' : sha256Hex(bytes);
  const cached = bytes === undefined ? undefined : await readCachedManifest(directory, manifestHash);
  if (cached !== undefined) {
    return {
      name: cached.manifest.name,
      directory,
      root,
      manifestHash,
      manifestCached: true,
      manifest: cached.manifest,
      diagnostics: cached.diagnostics,
      // Locations are needed only to report a problem: parse the manifest then, not on every discovery.
      locate: async (path) => (await parseFolder(directory, bytes)).locate(path),
    };
  }
  const result = await parseFolder(directory, bytes);
  return {
    name: result.manifest?.name ?? basename(directory),
    directory,
    root,
    manifestHash,
    manifest: result.manifest,
    diagnostics: result.diagnostics,
    locate: async (path) => result.locate(path),
  };
}

/**
 * Validates the very bytes that were hashed, so a cache entry always describes what it was made from. The YAML
 * parser and validator load only when some manifest is not in its build's cache.
 */
async function parseFolder(directory: string, bytes: Uint8Array | undefined): Promise<ManifestParseResult> {
  const {parseManifest, readManifest} = await import('../manifest/index.ts');
  let text: string | undefined;
  try {
    text = bytes === undefined ? undefined : new TextDecoder('utf-8', {fatal: true}).decode(bytes);
  } catch {
    text = undefined;
  }
  // Unreadable or not UTF-8: readManifest words that diagnostic.
  return text === undefined ? readManifest(directory) : parseManifest(text, join(directory, 'workflow.yaml'));
}

function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The size of a regular file, or undefined when there is none. */
function fileSize(file: string): number | undefined {
  try {
    const info = statSync(file, {throwIfNoEntry: false});
    return info?.isFile() === true ? info.size : undefined;
  } catch {
    return undefined;
  }
}

/** A file's bytes, or undefined when it cannot be read (readManifest then words why). */
function readBytes(file: string): Uint8Array | undefined {
  try {
    return readRegularFile(file, {maxBytes: MAX_MANIFEST_BYTES});
  } catch {
    return undefined;
  }
}

function findDuplicateNames(workflows: readonly WorkflowHandle[]): Diagnostic[] {
  const seen = new Map<string, WorkflowHandle>();
  const problems: Diagnostic[] = [];
  for (const handle of workflows) {
    if (handle.manifest === undefined) continue;
    const key = `${handle.root.directory}\0${handle.name}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, handle);
      continue;
    }
    problems.push({
      code: 'STRATOS_WORKFLOW_DUPLICATE_NAME',
      severity: 'error',
      message: `Workflow name '${handle.name}' is used by two folders in ${handle.root.directory}: ${first.directory} and ${handle.directory}. Names must be unique within a discovery root; rename one of them.`,
      location: {file: join(handle.directory, 'workflow.yaml'), line: 1, column: 1},
    });
  }
  return problems;
}
