// The layering check of scripts/layers.ts (AGENTS.md "The layering rule") over every relative import of a source
// folder: each import goes to a layer the importing layer may depend on; no cycle of static value imports among
// the modules; no cycle among the folders below it (subfolders included). Returns what `check-layers.ts` prints.
import {readdirSync, readFileSync} from 'node:fs';
import {dirname, join, relative, resolve, sep} from 'node:path';
import {allowedImports, folderOf, layerOf} from './layers.ts';

/** One relative import of a module of src/. */
export type Import = {
  /** The importing and imported files, relative to src/. */
  from: string;
  to: string;
  line: number;
  specifier: string;
  /** `import()`: loaded later, so it takes no part in a cycle. */
  dynamic: boolean;
  /** `import type` or `export type ... from`: erased at run time. */
  typeOnly: boolean;
};

function* walk(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, {withFileTypes: true})) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

// Static imports and re-exports start a line (Biome formats every module so): `... from '<specifier>'` or a bare
// `import '<specifier>'`; `import()` may be anywhere. `import {type A}` still loads its module, so only
// `import type` and `export type` are erased.
const importPattern =
  /^(?:import|export)\b[^;'"]*?\bfrom\s+['"](\.[^'"]+)['"]|^import\s+['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/gm;

/** Every relative import of the modules under `src` that stays inside it. */
export function readImports(src: string): Import[] {
  const imports: Import[] = [];
  for (const file of walk(src)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(src + sep)) continue;
      imports.push({
        from: relative(src, file),
        to: relative(src, target),
        line: text.slice(0, match.index).split('\n').length,
        specifier,
        dynamic: match[3] !== undefined,
        typeOnly: /^(?:import|export)\s+type\s/.test(match[0]),
      });
    }
  }
  return imports;
}

/** `file:line` of an import, relative to the working directory like the compiler's own messages. */
function locate(src: string, entry: Import): string {
  return `${relative(process.cwd(), join(src, entry.from))}:${entry.line}`;
}

/** The imports that break the table of allowed layers. */
function findLayerViolations(src: string, imports: Import[]): string[] {
  const violations: string[] = [];
  for (const entry of imports) {
    const from = layerOf(entry.from);
    const to = layerOf(entry.to);
    if (to === from || (allowedImports[from] ?? []).includes(to)) continue;
    // The CLI may import types only from lower layers (erased at run time); values must come through api/.
    if (from === 'cli' && entry.typeOnly && !entry.dynamic) continue;
    violations.push(`${locate(src, entry)}: ${from} may not import ${to} (${entry.specifier})`);
  }
  return violations;
}

/**
 * Every elementary cycle of a graph, each once: as its node list starting at its smallest node. Found by a
 * depth-first search from each node that only visits larger nodes, so each cycle is found from its start only.
 */
function findCycles(graph: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const nodes = [...graph.keys()].sort();
  for (const start of nodes) {
    const path = [start];
    const onPath = new Set(path);
    const visit = (node: string): void => {
      for (const next of [...(graph.get(node) ?? [])].sort()) {
        if (next === start) cycles.push([...path, start]);
        else if (next > start && !onPath.has(next)) {
          path.push(next);
          onPath.add(next);
          visit(next);
          onPath.delete(next);
          path.pop();
        }
      }
    };
    visit(start);
  }
  return cycles;
}

/** A cycle as printed and as listed in `knownCycles`, with the imports that close each step. */
type Cycle = {path: string; steps: string[]};

/**
 * The cycles among the static value imports, grouped by `keyOf` (the module itself, or its folder). Each step
 * names the first import that makes it, so the cycle can be broken there.
 */
function findImportCycles(src: string, imports: Import[], keyOf: (file: string) => string): Cycle[] {
  const graph = new Map<string, Set<string>>();
  const firstImport = new Map<string, Import>();
  for (const entry of imports) {
    if (entry.dynamic || entry.typeOnly) continue;
    const from = keyOf(entry.from);
    const to = keyOf(entry.to);
    if (from === to) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(to);
    const edge = `${from}\0${to}`;
    if (!firstImport.has(edge)) firstImport.set(edge, entry);
  }
  return findCycles(graph).map((nodes) => ({
    path: nodes.join(' -> '),
    steps: nodes.slice(1).map((to, index) => {
      const entry = firstImport.get(`${nodes[index]}\0${to}`)!;
      return `  ${locate(src, entry)}: ${entry.from} imports ${entry.specifier}`;
    }),
  }));
}

/** What the check found: `errors` fail it, `warnings` (the tolerated cycles) are only printed. */
export type LayerCheckResult = {errors: string[]; warnings: string[]};

/**
 * Checks every module under `src` against the layering rule. `knownCycles` are the cycles to tolerate, each as
 * printed (`a -> b -> a`, from its smallest member); one that no longer exists is an error.
 */
export function checkLayers(src: string, knownCycles: {cycle: string; reason: string}[]): LayerCheckResult {
  const imports = readImports(src);
  const errors: string[] = [];
  const warnings: string[] = [];

  const layerViolations = findLayerViolations(src, imports);
  if (layerViolations.length > 0) {
    errors.push('Layering violations (see AGENTS.md "The layering rule"):', ...layerViolations);
  }

  const cycles = [
    ...findImportCycles(src, imports, (file) => file.split(sep).join('/')).map((cycle) => ({
      kind: 'module',
      ...cycle,
    })),
    ...findImportCycles(src, imports, folderOf).map((cycle) => ({kind: 'folder', ...cycle})),
  ];
  const known = new Map(knownCycles.map((entry) => [entry.cycle, entry.reason]));
  for (const cycle of cycles) {
    const reason = known.get(cycle.path);
    const report = [`${cycle.kind} cycle: ${cycle.path}`, ...cycle.steps];
    if (reason === undefined) errors.push(...report);
    else warnings.push(`${report[0]} (tolerated: ${reason})`, ...report.slice(1));
  }
  const found = new Set(cycles.map((cycle) => cycle.path));
  for (const entry of knownCycles) {
    if (!found.has(entry.cycle)) {
      errors.push(
        `known cycle no longer exists: ${entry.cycle}. Remove it from knownCycles in scripts/layers.ts.`,
      );
    }
  }
  return {errors, warnings};
}
