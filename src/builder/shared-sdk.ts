/**
 * The discovery root's one shared SDK: `<root>/node_modules/@stratoscli/stratos` links to the running CLI's own
 * package folder, so workflow code and the runtime load the same module instance (and so share one
 * AsyncLocalStorage). `zod` and `@types/node` are bridged the same way: `import {z} from 'zod'` needs no
 * package.json in the workflow, and schema objects are never split across two Zod copies.
 */
import {lstatSync, mkdirSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {StratosError} from '../errors/index.ts';
import {writeFileAtomic} from '../internal/atomic-write.ts';
import {isRecord, readJsonFile} from '../internal/json-file.ts';
import {
  installedPackageDirectory,
  installedPackageVersion,
  packageDirectory,
  packageVersion,
} from '../internal/package-info.ts';
import {assertOwnedFile, assertRealFolder} from './owned-output.ts';

/** The description of the root package.json Stratos writes: a root holding it is one Stratos set up. */
export const rootMarker = 'Managed by Stratos: the shared SDK of this discovery root. Do not edit.';

export interface BridgedPackage {
  name: string;
  directory: string;
}

let bridgedCache: BridgedPackage[] | undefined;

export function bridgedPackages(): BridgedPackage[] {
  bridgedCache ??= [
    {name: '@stratoscli/stratos', directory: realpathSync(packageDirectory)},
    {name: 'zod', directory: installedPackageDirectory('zod')},
    {name: '@types/node', directory: installedPackageDirectory('@types/node')},
  ];
  return bridgedCache;
}

let zodVersionCache: string | undefined;

export async function bridgedZodVersion(): Promise<string> {
  zodVersionCache ??= installedPackageVersion('zod');
  return zodVersionCache;
}

/**
 * Makes `<root>` resolve the bridged packages, writing only inside the root (`owned-output.ts`). Idempotent and
 * cheap when the links are already right: a few synchronous calls on the path of every explicit build (see
 * internal/json-file.ts for why synchronous).
 */
export async function ensureSharedSdk(root: string): Promise<void> {
  mkdirSync(root, {recursive: true});
  // Checked all first: a package.json or a node_modules/ (or a scope folder in it) that is a symbolic link is
  // refused before anything is written, so no link is ever made or replaced outside the root.
  await assertOwnedFile(root, join(root, 'package.json'));
  for (const bridged of bridgedPackages())
    await assertRealFolder(root, dirname(join(root, 'node_modules', bridged.name)));
  await ensureRootPackageJson(root);
  for (const bridged of bridgedPackages())
    ensureLink(join(root, 'node_modules', bridged.name), bridged.directory);
}

/** Whether `<root>` resolves the bridged packages through Stratos's links now: a check that writes nothing. */
export function isSharedSdkLinked(root: string): boolean {
  return bridgedPackages().every(
    (entry) => readLink(join(root, 'node_modules', entry.name)) === entry.directory,
  );
}

function readLink(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

async function ensureRootPackageJson(root: string): Promise<void> {
  const file = join(root, 'package.json');
  let existing: unknown;
  try {
    existing = await readJsonFile(file);
  } catch (error) {
    throw new StratosError(
      'STRATOS_BUILD_PACKAGE_JSON_INVALID',
      `${file} is not valid JSON; fix or remove it.`,
      {
        cause: error,
        location: {file},
      },
    );
  }
  if (existing === undefined) {
    const content = {
      private: true,
      type: 'module',
      description: rootMarker,
      stratos: {sdkVersion: packageVersion()},
    };
    await writeFileAtomic(file, `${JSON.stringify(content, null, 2)}\n`);
    return;
  }
  if (!isRecord(existing) || existing.type !== 'module') {
    throw new StratosError(
      'STRATOS_BUILD_COMMONJS_PACKAGE',
      `${file} does not declare "type": "module". Workflows are ES modules; set "type": "module" or remove the file so Stratos can write its own.`,
      {location: {file}},
    );
  }
  await recordSdkVersion(file, existing);
}

/**
 * A root package.json Stratos wrote records the SDK version its links point at: a build by another CLI version
 * relinks the root, so the record follows. A package.json the author wrote is left as it is.
 */
async function recordSdkVersion(file: string, existing: Record<string, unknown>): Promise<void> {
  if (existing.description !== rootMarker) return;
  const recorded = isRecord(existing.stratos) ? existing.stratos : {};
  if (recorded.sdkVersion === packageVersion()) return;
  const content = {...existing, stratos: {...recorded, sdkVersion: packageVersion()}};
  await writeFileAtomic(file, `${JSON.stringify(content, null, 2)}\n`);
}

function ensureLink(linkPath: string, target: string): void {
  let current: string | undefined;
  try {
    const stats = lstatSync(linkPath);
    if (!stats.isSymbolicLink()) {
      throw new StratosError(
        'STRATOS_BUILD_SDK_SHADOWED',
        `${linkPath} is a real folder, not the link Stratos manages, so workflow code would load another copy. Remove it; Stratos links the package itself.`,
        {location: {file: linkPath}},
      );
    }
    current = readlinkSync(linkPath);
  } catch (error) {
    if (!(error instanceof Error && (error as NodeJS.ErrnoException).code === 'ENOENT')) throw error;
  }
  if (current === target) return;
  mkdirSync(dirname(linkPath), {recursive: true});
  // Link beside and rename over: a concurrent build never sees a missing link.
  const temporary = `${linkPath}.${process.pid}.${Date.now()}.tmp`;
  symlinkSync(target, temporary, 'dir');
  try {
    renameSync(temporary, linkPath);
  } catch (error) {
    try {
      rmSync(temporary, {force: true});
    } catch {}
    throw error;
  }
}
