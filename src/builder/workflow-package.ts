/**
 * A workflow's own package.json: ESM metadata, the shared-SDK and zod rules, and installing its dependencies
 * when they changed. Nothing the author wrote is removed; the one addition (`"type": "module"`) is reported.
 */
import {execFile} from 'node:child_process';
import {existsSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {Diagnostic} from '../errors/index.ts';
import {StratosError} from '../errors/index.ts';
import {writeFileAtomic} from '../internal/atomic-write.ts';
import {sha256Hex} from '../internal/hash.ts';
import {isRecord, readJsonFile} from '../internal/json-file.ts';
import {bridgedZodVersion} from './shared-sdk.ts';
import type {WorkflowPaths} from './workflow-paths.ts';

const dependencyFields = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
] as const;

export interface PackagePreparation {
  diagnostics: Diagnostic[];
  installed: boolean;
}

/** Checks the workflow package.json and installs its dependencies when needed. Throws on the first hard error. */
export async function prepareWorkflowPackage(
  paths: WorkflowPaths,
  onInstall?: () => void,
): Promise<PackagePreparation> {
  const diagnostics: Diagnostic[] = [];
  const file = paths.packageJson;
  // Checked with or without a package.json: Node resolves the workflow's own node_modules before the root's.
  assertNoShadowedSdk(paths);
  if (!existsSync(file)) return {diagnostics, installed: false};
  const text = await readFile(file, 'utf8');
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch (error) {
    throw new StratosError(
      'STRATOS_BUILD_PACKAGE_JSON_INVALID',
      `${file} is not valid JSON: ${String(error)}`,
      {
        cause: error,
        location: {file},
      },
    );
  }
  if (!isRecord(pkg)) {
    throw new StratosError('STRATOS_BUILD_PACKAGE_JSON_INVALID', `${file} must hold a JSON object.`, {
      location: {file},
    });
  }
  if (pkg.type !== undefined && pkg.type !== 'module') {
    throw new StratosError(
      'STRATOS_BUILD_COMMONJS_PACKAGE',
      `${file} declares "type": ${JSON.stringify(pkg.type)}. Workflows are ES modules: change it to "type": "module".`,
      {location: {file, ...locateKey(text, 'type')}},
    );
  }
  const dependencies = collectDependencies(pkg);
  if ('@stratoscli/stratos' in dependencies) {
    throw new StratosError(
      'STRATOS_BUILD_SDK_SHADOWED',
      `${file} depends on @stratoscli/stratos. The discovery root provides the one shared SDK (the CLI's own version); remove that dependency.`,
      {location: {file, ...locateKey(text, '@stratoscli/stratos')}},
    );
  }
  const zodRange = dependencies.zod;
  if (zodRange !== undefined) await assertCompatibleZod(zodRange, file, text);
  if (pkg.type === undefined) {
    await writeFile(file, addModuleType(text, pkg));
    diagnostics.push({
      code: 'STRATOS_BUILD_PACKAGE_TYPE_ADDED',
      severity: 'warning',
      message: `Added "type": "module" to ${file}: workflows are ES modules. Nothing else in the file changed.`,
      location: {file},
    });
  }
  const installed = await installDependencies(paths, Object.keys(dependencies).length > 0, onInstall);
  assertNoShadowedSdk(paths);
  return {diagnostics, installed};
}

function assertNoShadowedSdk(paths: WorkflowPaths): void {
  const shadow = join(paths.nodeModules, '@stratoscli', 'stratos');
  if (existsSync(shadow)) {
    throw new StratosError(
      'STRATOS_BUILD_SDK_SHADOWED',
      `${shadow} exists, so workflow code would load its own copy of the SDK instead of the shared one. Remove it.`,
      {location: {file: shadow}},
    );
  }
}

function collectDependencies(pkg: Record<string, unknown>): Record<string, string> {
  const all: Record<string, string> = {};
  for (const field of dependencyFields) {
    const value = pkg[field];
    if (!isRecord(value)) continue;
    for (const [name, range] of Object.entries(value)) if (typeof range === 'string') all[name] = range;
  }
  return all;
}

async function assertCompatibleZod(range: string, file: string, text: string): Promise<void> {
  const major = (await bridgedZodVersion()).split('.')[0];
  const declared = /^[\^~=v]?\s*(\d+)/.exec(range.trim())?.[1];
  if (declared === major) return;
  throw new StratosError(
    'STRATOS_BUILD_ZOD_INCOMPATIBLE',
    `${file} declares zod ${JSON.stringify(range)}, but the Stratos runtime uses zod ${major}. Declare "zod": "^${major}.0.0" or remove it (zod is provided).`,
    {location: {file, ...locateKey(text, 'zod')}},
  );
}

/** Inserts `"type": "module"` after `"version"` (or first) keeping the author's indentation. */
function addModuleType(text: string, pkg: Record<string, unknown>): string {
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const entries = Object.entries(pkg);
  const at = entries.findIndex(([key]) => key === 'version');
  entries.splice(at === -1 ? 0 : at + 1, 0, ['type', 'module']);
  return `${JSON.stringify(Object.fromEntries(entries), null, indent)}\n`;
}

function locateKey(text: string, key: string): {line?: number; column?: number} {
  const index = text.indexOf(JSON.stringify(key));
  if (index === -1) return {};
  const before = text.slice(0, index).split('\n');
  return {line: before.length, column: (before.at(-1)?.length ?? 0) + 1};
}

async function installDependencies(
  paths: WorkflowPaths,
  hasDependencies: boolean,
  onInstall?: () => void,
): Promise<boolean> {
  if (!hasDependencies) return false;
  const stamp = join(paths.nodeModules, '.stratos-dependencies.json');
  const key = await dependenciesKey(paths);
  const previous = await readJsonFile(stamp).catch(() => undefined);
  if (isRecord(previous) && previous.key === key) return false;
  onInstall?.();
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel', 'error'],
      {cwd: paths.directory, maxBuffer: 64 * 1024 * 1024},
      (error, _stdout, stderr) => {
        if (error === null) return resolve();
        reject(
          new StratosError(
            'STRATOS_BUILD_DEPENDENCY_INSTALL_FAILED',
            `npm install failed in ${paths.directory}: ${stderr.trim() || error.message}`,
            {cause: error, location: {file: paths.packageJson}},
          ),
        );
      },
    );
  });
  // The install may have written a lock file: stamp what is on disk now.
  await writeFileAtomic(stamp, JSON.stringify({key: await dependenciesKey(paths)}));
  return true;
}

async function dependenciesKey(paths: WorkflowPaths): Promise<string> {
  const parts = await Promise.all(
    ['package.json', 'package-lock.json'].map((name) =>
      readFile(join(paths.directory, name), 'utf8').catch(() => ''),
    ),
  );
  return sha256Hex(parts.join('\0'));
}
