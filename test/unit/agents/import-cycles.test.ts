// The static value imports under src/agents/ form no cycle, module by module and folder by folder. Type-only
// imports (`import type`, `export type`) are erased and do not count; dynamic `import()` does not either (the
// registry loads adapters that way, on first use). Adapters (`harnesses/<id>/`) build on `harness-kit/`, which
// reads neither the registry nor the rest of `agents/`, so `agents -> harnesses -> harnesses/<id>` never closes.
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {dirname, join, relative, resolve, sep} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

const src = fileURLToPath(new URL('../../../src/', import.meta.url));
const agents = join(src, 'agents');

function listSources(folder: string): string[] {
  return readdirSync(folder, {withFileTypes: true}).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return listSources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each module's static value imports of modules under src/agents/. */
function readImportGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of listSources(agents)) {
    const text = readFileSync(file, 'utf8');
    const targets = [
      ...text.matchAll(/^(?:import|export)\s+(?!type\s)[^'";]*?\bfrom\s+'(\.[^']+)'/gms),
      ...text.matchAll(/^import\s+'(\.[^']+)'/gm),
    ].map((match) => resolve(dirname(file), match[1]!));
    graph.set(name(file), targets.filter((target) => target.startsWith(agents + sep)).map(name));
  }
  return graph;
}

function name(file: string): string {
  return relative(src, file).split(sep).join('/');
}

/** Every cycle found by a depth-first walk, as the path that closes it. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string) => {
    const at = path.indexOf(node);
    if (at !== -1) {
      cycles.push([...path.slice(at), node]);
      return;
    }
    if (done.has(node)) return;
    path.push(node);
    for (const next of graph.get(node) ?? []) visit(next);
    path.pop();
    done.add(node);
  };
  for (const node of graph.keys()) visit(node);
  return cycles;
}

/** The folder graph: `agents/harnesses/<id>` folders are one node, so every adapter counts alike. */
function readFolderGraph(graph: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const folderOf = (file: string) =>
    dirname(file).replace(/^agents\/harnesses\/[^/]+$/, 'agents/harnesses/<id>');
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    const edges = folders.get(from) ?? new Set<string>();
    for (const target of targets) if (folderOf(target) !== from) edges.add(folderOf(target));
    folders.set(from, edges);
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
}

test('no module under src/agents/ reaches itself through static value imports', () => {
  assert.deepEqual(
    findCycles(readImportGraph()).map((cycle) => cycle.join(' -> ')),
    [],
  );
});

/** The folder cycles, each written from its smallest folder name (the same cycle wherever the walk entered it). */
function findFolderCycles(): string[] {
  return findCycles(readFolderGraph(readImportGraph())).map((cycle) => {
    const ring = cycle.slice(0, -1);
    const start = ring.indexOf([...ring].sort()[0]!);
    const rotated = [...ring.slice(start), ...ring.slice(0, start)];
    return [...rotated, rotated[0]].join(' -> ');
  });
}

test('the folders under src/agents/ form no cycle', () => {
  assert.deepEqual(findFolderCycles(), []);
});

test('the cycle walk finds a module cycle and a folder cycle', () => {
  const graph = new Map([
    ['agents/a.ts', ['agents/selection/b.ts']],
    ['agents/selection/b.ts', ['agents/c.ts']],
    ['agents/c.ts', ['agents/a.ts']],
  ]);
  assert.deepEqual(findCycles(graph), [
    ['agents/a.ts', 'agents/selection/b.ts', 'agents/c.ts', 'agents/a.ts'],
  ]);
  assert.deepEqual(findCycles(readFolderGraph(graph)), [['agents', 'agents/selection', 'agents']]);
});
