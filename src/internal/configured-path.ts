/**
 * The one rule for paths written in configuration (workflow.yaml file references, trace file exporters, prompt
 * files, path targets): absolute as written, `~` or `~/...` in the user's home directory, anything else relative to
 * the folder the configuration belongs to.
 */
import {homedir} from 'node:os';
import {isAbsolute, join, resolve} from 'node:path';

/** Resolves a configured path against `directory`, expanding `~` and `~/` to the home directory. */
export function resolveConfiguredPath(path: string, directory: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return isAbsolute(path) ? path : resolve(directory, path);
}
