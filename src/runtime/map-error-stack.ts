/**
 * A failed run's stack in the terms of the authored `.ts` files: each frame of compiled workflow code mapped
 * through the source map the build writes beside it. Loaded only when a run fails (invoke-workflow imports it on
 * that path), so a run that succeeds reads no map; Node's own `--enable-source-maps` stays off.
 */
import {readFileSync} from 'node:fs';
import {SourceMap, type SourceMapPayload} from 'node:module';
import {dirname, isAbsolute, relative, resolve, sep} from 'node:path';
import {fileURLToPath} from 'node:url';
import type {SourceLocation} from '../errors/index.ts';

export interface MappedStack {
  /** The stack with every mappable frame pointing at its `.ts` source (absolute paths). */
  stack: string;
  /**
   * The first frame in the workflow's own authored files (not `node_modules/`, not `generated/`), its file relative
   * to the workflow folder; undefined when no frame is there.
   */
  location?: SourceLocation;
}

/** One frame: `at name (file:///x.js:1:2)` or `at file:///x.js:1:2` (`async` and `new` before the name). */
const framePattern = /^(\s*at (?:.*? \()?)((?:file:\/\/)?\/[^()]*?):(\d+):(\d+)(\)?)$/;

/**
 * Maps `error.stack` through the source maps of the compiled files it names and finds the workflow's own frame.
 * Frames without a readable map stay as they are; nothing here throws.
 */
export function mapErrorStack(error: Error, workflowDirectory: string): MappedStack {
  const maps = new Map<string, SourceMap | undefined>();
  let location: SourceLocation | undefined;
  const lines = (error.stack ?? '').split('\n').map((line) => {
    const frame = framePattern.exec(line);
    if (frame === null) return line;
    const [, head, where, lineText, columnText, tail] = frame as unknown as string[];
    const file = where!.startsWith('file:') ? fileURLToPath(where!) : where!;
    const origin = findOrigin(maps, file, Number(lineText), Number(columnText));
    if (origin === undefined) return line;
    const authored = relative(workflowDirectory, origin.file);
    if (location === undefined && isAuthored(authored)) {
      location = {file: authored.split(sep).join('/'), line: origin.line, column: origin.column};
    }
    return `${head}${origin.file}:${origin.line}:${origin.column}${tail}`;
  });
  return {stack: lines.join('\n'), ...(location === undefined ? {} : {location})};
}

function isAuthored(relativePath: string): boolean {
  if (relativePath === '' || relativePath.startsWith('..') || isAbsolute(relativePath)) return false;
  const parts = relativePath.split(sep);
  return !parts.includes('node_modules') && parts[0] !== 'generated';
}

function findOrigin(
  maps: Map<string, SourceMap | undefined>,
  file: string,
  line: number,
  column: number,
): {file: string; line: number; column: number} | undefined {
  if (!maps.has(file)) maps.set(file, readSourceMap(file));
  const map = maps.get(file);
  if (map === undefined) return undefined;
  const entry = map.findEntry(line - 1, column - 1);
  if (!('originalSource' in entry)) return undefined;
  const source = entry.originalSource.startsWith('file:')
    ? fileURLToPath(entry.originalSource)
    : resolve(dirname(file), entry.originalSource);
  return {file: source, line: entry.originalLine + 1, column: entry.originalColumn + 1};
}

/** The map a compiled file names in its `sourceMappingURL` comment (a file beside it); undefined when none. */
function readSourceMap(file: string): SourceMap | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
    if (url === undefined || url.startsWith('data:')) return undefined;
    const mapFile = resolve(dirname(file), decodeURIComponent(url));
    const payload = JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload;
    // Sources are relative to the map (and its sourceRoot); resolve them against the compiled file's folder.
    const root = resolve(dirname(mapFile), payload.sourceRoot ?? '');
    return new SourceMap({
      ...payload,
      sourceRoot: '',
      sources: payload.sources.map((source) => relative(dirname(file), resolve(root, source))),
    });
  } catch {
    return undefined;
  }
}
