// The check of the cached-path list (scripts/cached-paths.ts, AGENTS.md "The cached paths") over src/: the list
// is closed under static imports, path by path, and holds no module that nothing on it imports. Returns what
// `check-layers.ts` prints.
import {existsSync} from 'node:fs';
import {join, relative, sep} from 'node:path';
import type {CachedPath} from './cached-paths.ts';
import {readImports} from './layer-check.ts';

export interface CachedPathList {
  entries: readonly string[];
  modules: Record<string, readonly CachedPath[]>;
}

/** Every way `src` breaks the list, each as a sentence that names the import and the fix. */
export function checkCachedPaths(src: string, list: CachedPathList, listFile: string): string[] {
  const errors: string[] = [];
  const imports = readImports(src).map((entry) => ({...entry, from: posix(entry.from), to: posix(entry.to)}));
  const gone = Object.keys(list.modules).filter((module) => !existsSync(join(src, module)));
  for (const module of gone)
    errors.push(`${listFile}: ${module} is on the cached paths but does not exist under src/; remove it.`);
  for (const entry of imports) {
    if (entry.dynamic || entry.typeOnly) continue;
    const paths = list.modules[entry.from];
    if (paths === undefined) continue;
    const missing = paths.filter((path) => !(list.modules[entry.to] ?? []).includes(path));
    if (missing.length === 0) continue;
    errors.push(
      `${relative(process.cwd(), join(src, entry.from))}:${entry.line}: ${entry.from} is on the cached ${names(missing)} and imports ${entry.to} ` +
        `statically ('${entry.specifier}'), which ${listFile} does not list on ${missing.length === 1 ? 'it' : 'them'}. ` +
        `Load it with import() where it is used, or list it on the paths that need it: '${entry.to}': ` +
        `[${[...new Set([...(list.modules[entry.to] ?? []), ...missing])]
          .sort()
          .map((path) => `'${path}'`)
          .join(', ')}],`,
    );
  }
  for (const module of Object.keys(list.modules)) {
    if (list.entries.includes(module) || gone.includes(module)) continue;
    if (
      imports.some(
        (entry) => entry.to === module && !entry.typeOnly && list.modules[entry.from] !== undefined,
      )
    )
      continue;
    errors.push(
      `${listFile}: ${module} is on the cached paths but no module on them imports it; remove it from the list.`,
    );
  }
  return errors;
}

function names(paths: readonly CachedPath[]): string {
  return paths.length === 1 ? `${paths[0]} path` : `${paths.join(' and ')} paths`;
}

function posix(path: string): string {
  return path.split(sep).join('/');
}
