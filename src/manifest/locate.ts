/**
 * Source positions for manifest paths. Other modules (MCP, agents, telemetry) validate their own parts of
 * workflow.yaml later and use the same locator, so every diagnostic about the file points into it.
 */

import type {Document} from 'yaml';
import {isAlias, isCollection, isMap, isScalar, isSeq, type LineCounter, type Node} from 'yaml';
import type {SourceLocation} from '../errors/index.ts';
import type {AliasIndex} from './yaml-aliases.ts';

/** A path into the manifest, such as `['mcp', 'servers', 'github', 'url']` or `['telemetry', 'exporters', 0]`. */
export type ManifestPath = readonly (string | number)[];

/**
 * Which part of a mapping entry a location points at. `'value'` (the default) points at a scalar value, or at the
 * key when the value is empty or a block collection (whose first line is the line after the key); `'key'` always
 * points at the key.
 */
export type LocateTarget = 'value' | 'key';

/** Finds the 1-based line and column of the node at a path, or of its nearest existing ancestor. */
export type ManifestLocator = (path: ManifestPath, target?: LocateTarget) => SourceLocation;

const documentStart = {line: 1, column: 1} as const;

/** Formats a path as the dotted field path used in diagnostics: `mcp.servers.github.url`, `exporters[0].path`. */
export function formatPath(path: ManifestPath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    // Names with dots, spaces or brackets (header names may have them) are quoted so the path stays unambiguous.
    else if (/^[A-Za-z0-9_-]+$/.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** The 1-based position of a source offset; an offset outside the text clamps to the document start. */
export function offsetLocation(file: string, lineCounter: LineCounter, offset: number): SourceLocation {
  const {line, col} = lineCounter.linePos(offset);
  // linePos reports line 0 before the first known line start; that is still the first line of the file.
  return line < 1 ? {file, ...documentStart} : {file, line, column: col};
}

/** The position where a node starts, or undefined for nodes without a source range. */
export function nodeLocation(
  file: string,
  lineCounter: LineCounter,
  node: Node | null | undefined,
): SourceLocation | undefined {
  if (node?.range == null) return undefined;
  return offsetLocation(file, lineCounter, node.range[0]);
}

/** True when a location should name the key rather than the value: empty values and block collections. */
export function prefersKeyLocation(value: Node | null | undefined): boolean {
  if (value == null || value.range == null) return true;
  if (isScalar(value)) return value.value === null && value.range[0] === value.range[1];
  return isCollection(value) && value.flow !== true;
}

/**
 * Creates the locator of one parsed document. Aliases are followed for traversal, but the location stays where
 * the alias is written.
 */
export function createManifestLocator(
  doc: Document,
  lineCounter: LineCounter,
  file: string,
  aliases: Pick<AliasIndex, 'resolve'>,
): ManifestLocator {
  const resolve = aliases.resolve;
  const at = (node: unknown): SourceLocation | undefined =>
    isAlias(node) || isScalar(node) || isCollection(node) ? nodeLocation(file, lineCounter, node) : undefined;

  return (path, target = 'value') => {
    let written: unknown = doc.contents;
    let node = resolve(written);
    let location = at(written) ?? {file, ...documentStart};
    for (const [index, segment] of path.entries()) {
      if (isMap(node)) {
        const pair = node.items.find(
          (item) => isScalar(item.key) && String(item.key.value) === String(segment),
        );
        if (pair === undefined) return location;
        const value = resolve(pair.value);
        const keyLocation = at(pair.key) ?? location;
        const wantsKey = target === 'key' && index === path.length - 1;
        location = wantsKey || prefersKeyLocation(value) ? keyLocation : (at(pair.value) ?? keyLocation);
        written = pair.value;
        node = value;
      } else if (isSeq(node) && typeof segment === 'number') {
        written = node.items[segment];
        if (written === undefined) return location;
        node = resolve(written);
        location = at(written) ?? location;
      } else {
        return location;
      }
    }
    return location;
  };
}
