/**
 * Child-workflow references of a workflow, detected from its imports: every import (static, dynamic with a
 * literal, re-export, type-only) of `<root>/.generated/<name>.js` in the entrypoint or the relative modules it
 * reaches. A reference inside a condition still counts: the parent needs the child's type contract to compile.
 */
import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {basename, dirname, join, resolve} from 'node:path';
import type {WorkflowPaths} from './workflow-paths.ts';

export interface ChildReference {
  name: string;
  /** Where the import is, for diagnostics. */
  location: {file: string; line: number; column: number};
}

const generatedFolder = '.generated';

export function childWrapperPath(root: string, name: string): string {
  return join(root, generatedFolder, `${name}.ts`);
}

export async function findChildReferences(paths: WorkflowPaths): Promise<ChildReference[]> {
  const references = new Map<string, ChildReference>();
  const visited = new Set<string>();
  const pending = [paths.entrypoint];
  const generatedDirectory = join(paths.root, generatedFolder);
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (visited.has(file) || !existsSync(file)) continue;
    visited.add(file);
    const source = await readFile(file, 'utf8');
    // Most workflows import no child and few relative modules: skip the parser when nothing can match.
    if (!source.includes(generatedFolder) && !/from\s+['"]\.|import\(\s*['"]\./.test(source)) continue;
    for (const {specifier, offset} of await moduleSpecifiers(file, source)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (dirname(target) === generatedDirectory) {
        const name = basename(target).replace(/\.(js|ts)$/, '');
        if (!references.has(name))
          references.set(name, {name, location: {file, ...lineAndColumn(source, offset)}});
      } else if (target.startsWith(paths.directory)) {
        pending.push(target.replace(/\.js$/, '.ts'));
      }
    }
  }
  return [...references.values()].sort((a, b) => a.name.localeCompare(b.name));
}

async function moduleSpecifiers(
  file: string,
  source: string,
): Promise<{specifier: string; offset: number}[]> {
  const {parseSync} = await import('oxc-parser');
  const {module} = parseSync(file, source);
  const found: {specifier: string; offset: number}[] = [];
  for (const item of module.staticImports)
    found.push({specifier: item.moduleRequest.value, offset: item.start});
  for (const item of module.staticExports) {
    for (const entry of item.entries) {
      if (entry.moduleRequest !== null)
        found.push({specifier: entry.moduleRequest.value, offset: item.start});
    }
  }
  for (const item of module.dynamicImports) {
    const text = source.slice(item.moduleRequest.start, item.moduleRequest.end);
    const literal = /^(['"`])([^'"`]*)\1$/.exec(text);
    if (literal !== null) found.push({specifier: literal[2]!, offset: item.start});
  }
  return found;
}

function lineAndColumn(source: string, offset: number): {line: number; column: number} {
  const before = source.slice(0, offset).split('\n');
  return {line: before.length, column: before.at(-1)!.length + 1};
}
