// Why a cached path loads more than it should, for the failure messages of test/e2e/cached-paths.test.ts: which
// module of the declared cached paths (scripts/cached-paths.ts) imports the package or built-in that appeared, and
// which import() reached a bundle chunk outside the hot ones.
import {readFileSync} from 'node:fs';
import {basename, join, resolve} from 'node:path';
import {type CachedPath, cachedPathModules} from '../../scripts/cached-paths.ts';
import {readImports} from '../../scripts/layer-check.ts';

const repo = resolve(import.meta.dirname, '..', '..');
const src = join(repo, 'src');

/** The modules on `paths` whose static imports name `specifier` (`zod`, `node:child_process`), with their lines. */
export function explainImportOf(specifier: string, paths: readonly CachedPath[]): string {
  const quoted = `['"]${escapePattern(specifier)}(?:/[^'"]*)?['"]`;
  const pattern = new RegExp(
    `^(?:import|export)\\b(?!\\s+type\\s)[^;'"]*?\\bfrom\\s+${quoted}|^import\\s+${quoted}`,
    'gm',
  );
  const found: string[] = [];
  for (const [module, on] of Object.entries(cachedPathModules)) {
    if (!on.some((path) => paths.includes(path))) continue;
    const text = readFileSync(join(src, module), 'utf8');
    for (const match of text.matchAll(pattern))
      found.push(`src/${module}:${text.slice(0, match.index).split('\n').length}`);
  }
  return found.length === 0
    ? `no module on the cached ${paths.join('/')} path imports ${specifier} statically: a package or Node itself loads it`
    : `imported statically by ${found.join(', ')}; load it with import() where it is used`;
}

/**
 * For each loaded bundle file outside the entries and the hot chunks: the modules it holds (from its source map)
 * and the import() that reached them from a module on the cached paths.
 */
export function explainChunks(files: readonly string[]): string {
  const extra = files.filter((file) => {
    const name = basename(file);
    return (
      file.includes(`${join('dist', 'bundle')}`) &&
      !name.startsWith('hot-') &&
      !['cli.js', 'index.js'].includes(name)
    );
  });
  if (extra.length === 0) return 'no chunk beyond the hot ones was loaded';
  const imports = readImports(src);
  return extra
    .map((file) => {
      const {sources} = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as {sources: string[]};
      const modules = sources
        .map((source) => resolve(join(file, '..'), source))
        .filter((path) => path.startsWith(src))
        .map((path) => path.slice(src.length + 1));
      const via = imports
        .filter(
          (entry) =>
            entry.dynamic && modules.includes(entry.to) && cachedPathModules[entry.from] !== undefined,
        )
        .map((entry) => `src/${entry.from}:${entry.line} import('${entry.specifier}')`);
      return `${basename(file)} holds ${modules.join(', ')}; reached by ${via.length === 0 ? 'an import() outside the listed modules' : via.join(', ')}. List its modules in scripts/cached-paths.ts if the path needs them`;
    })
    .join('\n');
}

function escapePattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
