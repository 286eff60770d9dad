// Some tests drive programs that a fresh machine of this kind lacks: Debian's Chromium for the browser sign-in
// tests (through playwright-core), zsh and fish for the shell completion tests. As root with apt-get, install the
// missing ones from Debian's packages, the machine's own registry (one `apt-get update`, one `apt-get install` for
// all of them); anywhere else, say what to install. `npm test` calls this first; run it alone with
// `node scripts/ensure-test-packages.ts`. Without Chromium the sign-in tests fail, not skip: a sign-in test that
// cannot run has not passed. The zsh and fish tests skip only where this could not install their shell
// (`describeUninstallable`).
import {spawnSync} from 'node:child_process';
import {accessSync, constants} from 'node:fs';
import {delimiter, isAbsolute, join} from 'node:path';

/** A Debian package some tests need, and the command whose presence means it is installed. */
export interface TestPackage {
  /** The Debian package name, for `apt-get install`. */
  name: string;
  /** The executable: an absolute path, or a command name looked up on PATH. */
  command: string;
  /** Which tests need it, as the subject of "need it". */
  neededBy: string;
  /** Another way to provide it, appended to the install advice. */
  alternative?: string;
}

export const testPackages: readonly TestPackage[] = [
  {
    name: 'chromium',
    command: process.env.STRATOS_TEST_CHROMIUM ?? '/usr/bin/chromium',
    neededBy: 'the browser sign-in tests',
    alternative: 'or set STRATOS_TEST_CHROMIUM to a Chromium binary',
  },
  {name: 'zsh', command: 'zsh', neededBy: 'the zsh completion tests'},
  {name: 'fish', command: 'fish', neededBy: 'the fish completion tests'},
];

/** Installs the missing `packages` with apt-get when running as root on Debian; else prints what to install. */
export function ensureTestPackages(packages: readonly TestPackage[] = testPackages): void {
  const missing = packages.filter((pkg) => findExecutable(pkg.command) === undefined);
  if (missing.length === 0) return;
  if (!canInstallPackages()) {
    for (const pkg of missing) console.error(describeMissing(pkg));
    return;
  }
  const names = missing.map((pkg) => pkg.name);
  console.log(
    `Installing Debian ${names.join(', ')} for ${missing.map((pkg) => pkg.neededBy).join(', ')}...`,
  );
  const env = {...process.env, DEBIAN_FRONTEND: 'noninteractive'};
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...names],
  ]) {
    const result = spawnSync('apt-get', args, {stdio: 'inherit', env});
    if (result.status !== 0) {
      console.error(
        `apt-get ${args.join(' ')} failed (exit ${result.status}); ${missing.map((pkg) => pkg.neededBy).join(', ')} will fail.`,
      );
      return;
    }
  }
}

/**
 * Why the tests that need `name` (one of `testPackages`) cannot run here: it is missing and this machine cannot
 * install it (not root, or no apt-get). Undefined when it is installed or could be: then its tests run, and fail
 * if it is missing, since `npm test` would have installed it.
 */
export function describeUninstallable(name: string): string | undefined {
  const pkg = testPackages.find((candidate) => candidate.name === name);
  if (pkg === undefined)
    throw new Error(`'${name}' is not one of the test packages in scripts/ensure-test-packages.ts.`);
  if (findExecutable(pkg.command) !== undefined || canInstallPackages()) return undefined;
  return describeMissing(pkg);
}

/** The absolute path of `command` (itself when absolute, else the first executable match on PATH), if any. */
export function findExecutable(command: string): string | undefined {
  const candidates = isAbsolute(command)
    ? [command]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter((dir) => dir !== '')
        .map((dir) => join(dir, command));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function canInstallPackages(): boolean {
  const isRoot = process.getuid?.() === 0;
  return isRoot && spawnSync('apt-get', ['--version'], {stdio: 'ignore'}).status === 0;
}

function describeMissing(pkg: TestPackage): string {
  const where = isAbsolute(pkg.command) ? `at ${pkg.command}` : `on PATH`;
  return (
    `${pkg.name} is missing ${where}; ${pkg.neededBy} need it. Install Debian's ${pkg.name} package ` +
    `(apt-get install ${pkg.name})${pkg.alternative === undefined ? '' : ` ${pkg.alternative}`}.`
  );
}

if (import.meta.main) ensureTestPackages();
