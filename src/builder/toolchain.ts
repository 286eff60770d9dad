/** The compiler Stratos owns, as facts: its flags and its version (both in the build key). Spawns nothing. */
import {installedPackageVersion} from '../internal/package-info.ts';

/** The flags every workflow is compiled with; part of the build key, so changing them rebuilds everything. */
export const compilerFlags: readonly string[] = [
  '--ignoreConfig',
  '--strict',
  '--target',
  'es2022',
  '--module',
  'nodenext',
  '--moduleResolution',
  'nodenext',
  '--noEmitOnError',
  '--skipLibCheck',
  '--types',
  'node',
  '--sourceMap',
  '--pretty',
  'false',
];

let cachedVersion: string | undefined;

export function compilerVersion(): string {
  cachedVersion ??= installedPackageVersion('typescript');
  return cachedVersion;
}
