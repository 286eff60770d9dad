/**
 * Source locations for contract diagnostics: finds the property that declares a schema field path
 * (`input.options.items[].id`) in the entrypoint's `export default workflow({...})`, following identifiers that
 * name top-level constants of the same module. Best effort: a schema declared in another module keeps the
 * entrypoint file as its location, without a line.
 */
import {readFile} from 'node:fs/promises';
import type {SourceLocation} from '../errors/index.ts';

interface AstNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** The object keys of a field path, without array positions and record wildcards. */
export function fieldPathKeys(path: string): string[] {
  const keys: string[] = [];
  for (const match of path.matchAll(/([A-Za-z_$][A-Za-z0-9_$]*)|\[("(?:[^"\\]|\\.)*")\]/g)) {
    keys.push(match[1] ?? (JSON.parse(match[2]!) as string));
  }
  return keys;
}

export async function locateSchemaField(file: string, path: string | undefined): Promise<SourceLocation> {
  const fallback = {file};
  if (path === undefined) return fallback;
  try {
    const source = await readFile(file, 'utf8');
    const {parseSync} = await import('oxc-parser');
    const program = parseSync(file, source).program as unknown as AstNode;
    const constants = topLevelConstants(program);
    const exported = (program.body as AstNode[]).find((node) => node.type === 'ExportDefaultDeclaration');
    let current: AstNode | undefined = exported?.declaration as AstNode | undefined;
    let found: AstNode | undefined;
    for (const key of fieldPathKeys(path)) {
      found = current === undefined ? undefined : findProperty(current, key, constants);
      if (found === undefined) return fallback;
      current = found.value as AstNode;
    }
    if (found === undefined) return fallback;
    const before = source.slice(0, found.start).split('\n');
    return {file, line: before.length, column: before.at(-1)!.length + 1};
  } catch {
    return fallback;
  }
}

function topLevelConstants(program: AstNode): Map<string, AstNode> {
  const constants = new Map<string, AstNode>();
  for (let statement of program.body as AstNode[]) {
    if (statement.type === 'ExportNamedDeclaration' && statement.declaration) {
      statement = statement.declaration as AstNode;
    }
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations as AstNode[]) {
      const id = declarator.id as AstNode;
      if (id.type === 'Identifier' && declarator.init)
        constants.set(id.name as string, declarator.init as AstNode);
    }
  }
  return constants;
}

/** Breadth-first: the nearest property named `key` below `root`, looking through top-level constants once each. */
function findProperty(root: AstNode, key: string, constants: Map<string, AstNode>): AstNode | undefined {
  const queue: AstNode[] = [root];
  const followed = new Set<string>();
  while (queue.length > 0) {
    const node = queue.shift()!;
    if (node.type === 'Property' && propertyName(node) === key) return node;
    if (
      node.type === 'Identifier' &&
      constants.has(node.name as string) &&
      !followed.has(node.name as string)
    ) {
      followed.add(node.name as string);
      queue.push(constants.get(node.name as string)!);
      continue;
    }
    for (const [field, value] of Object.entries(node)) {
      // A property's own key is not where nested fields are declared; its value is.
      if (node.type === 'Property' && field === 'key') continue;
      for (const child of Array.isArray(value) ? value : [value]) {
        if (typeof child === 'object' && child !== null && typeof (child as AstNode).type === 'string') {
          queue.push(child as AstNode);
        }
      }
    }
  }
  return undefined;
}

function propertyName(node: AstNode): string | undefined {
  const key = node.key as AstNode;
  if (key.type === 'Identifier') return key.name as string;
  if (key.type === 'Literal' && typeof key.value === 'string') return key.value;
  return undefined;
}
