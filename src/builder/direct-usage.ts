/**
 * Direct MCP usage: which configured servers workflow code imports from `./generated/mcp/<server>.js` and
 * actually references. Reads the entrypoint and the relative modules it imports (inside the workflow folder,
 * outside generated/) with a fast parser; the wrappers themselves need not exist. An import whose bindings are
 * never referenced does not count; a re-export or a dynamic `import()` of a wrapper does.
 */
import {readFile} from 'node:fs/promises';
import {dirname, join, relative, resolve, sep} from 'node:path';
import {parseSync} from 'oxc-parser';

export interface DirectUsageOptions {
  /** The workflow folder. */
  directory: string;
  entrypoint: string;
  /** The configured `mcp.servers` keys. */
  servers: readonly string[];
}

/** The configured servers that workflow code uses directly, sorted. A missing entrypoint uses none. */
export async function detectDirectMcpUsage(options: DirectUsageOptions): Promise<string[]> {
  const wrapperDirectory = join(options.directory, 'generated', 'mcp');
  const byWrapper = new Map(
    options.servers.map((server) => [join(wrapperDirectory, `${server}.js`), server]),
  );
  const used = new Set<string>();
  const seen = new Set<string>();
  const queue = [options.entrypoint];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    let source: string;
    try {
      source = await readFile(file, 'utf8');
    } catch {
      continue; // A missing module is the compiler's diagnostic to give.
    }
    const scan = scanModule(file, source);
    for (const specifier of scan.relativeImports) {
      const target = resolve(dirname(file), specifier);
      const server = byWrapper.get(target);
      if (server !== undefined) {
        if (scan.usedSpecifiers.has(specifier)) used.add(server);
        continue;
      }
      const local = toSourcePath(target);
      if (
        local !== undefined &&
        isInside(options.directory, local) &&
        !isInside(join(options.directory, 'generated'), local)
      )
        queue.push(local);
    }
  }
  return [...used].sort();
}

interface ModuleScan {
  /** Every relative module specifier the file imports, re-exports or dynamically imports with a literal. */
  relativeImports: string[];
  /** The specifiers among them whose import is used: a binding referenced, a re-export, a dynamic import. */
  usedSpecifiers: Set<string>;
}

function scanModule(file: string, source: string): ModuleScan {
  const parsed = parseSync(file, source, {sourceType: 'module'});
  const relativeImports: string[] = [];
  const usedSpecifiers = new Set<string>();
  const bindings = new Map<string, string>();
  const declarationStarts = new Set<number>();
  for (const entry of parsed.module.staticImports) {
    const specifier = entry.moduleRequest.value;
    if (!specifier.startsWith('.')) continue;
    relativeImports.push(specifier);
    for (const item of entry.entries) {
      bindings.set(item.localName.value, specifier);
      declarationStarts.add(item.localName.start);
    }
  }
  for (const entry of parsed.module.staticExports) {
    for (const item of entry.entries) {
      const specifier = item.moduleRequest?.value;
      if (specifier === undefined || !specifier.startsWith('.')) continue;
      relativeImports.push(specifier);
      usedSpecifiers.add(specifier);
    }
  }
  for (const entry of parsed.module.dynamicImports) {
    const text = source.slice(entry.moduleRequest.start, entry.moduleRequest.end).trim();
    const literal = /^(['"`])(\.[^'"`$]*)\1$/.exec(text);
    if (literal === null) continue;
    relativeImports.push(literal[2]!);
    usedSpecifiers.add(literal[2]!);
  }
  if (bindings.size > 0) {
    walk(parsed.program, (node) => {
      if (node.type !== 'Identifier' || typeof node.name !== 'string') return;
      const specifier = bindings.get(node.name);
      if (specifier !== undefined && !declarationStarts.has(node.start as number))
        usedSpecifiers.add(specifier);
    });
  }
  return {relativeImports, usedSpecifiers};
}

type AstNode = {type?: unknown; name?: unknown; start?: unknown; [key: string]: unknown};

function walk(node: unknown, visit: (node: AstNode) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as AstNode;
  if (record.type === 'ImportDeclaration') return;
  if (typeof record.type === 'string') visit(record);
  for (const [key, value] of Object.entries(record)) {
    if (key !== 'type' && typeof value === 'object' && value !== null) walk(value, visit);
  }
}

/** `./lib.js` is written as `./lib.ts`: the TypeScript source of a relative import, when it is one. */
function toSourcePath(target: string): string | undefined {
  if (/\.[cm]?js$/.test(target)) return target.replace(/\.([cm]?)js$/, '.$1ts');
  if (/\.[cm]?ts$/.test(target)) return target;
  return undefined;
}

function isInside(folder: string, file: string): boolean {
  const path = relative(folder, file);
  return path !== '' && !path.startsWith(`..${sep}`) && path !== '..';
}
