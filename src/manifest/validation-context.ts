/** The shared state of one manifest validation: the document, where its nodes are, and the findings so far. */
import {isMap, isScalar, isSeq, type LineCounter, type Node} from 'yaml';
import type {Diagnostic, ErrorCode, SourceLocation} from '../errors/index.ts';
import {
  formatPath,
  type ManifestLocator,
  type ManifestPath,
  nodeLocation,
  prefersKeyLocation,
} from './locate.ts';
import type {AliasIndex} from './yaml-aliases.ts';

/** One field of a mapping (or one item of a list) as written in workflow.yaml. */
export interface ManifestEntry {
  /** The key as text; for list items the index as text. */
  key: string;
  /** The key node; undefined for list items and the document root. */
  keyNode: Node | undefined;
  /** The value with aliases followed; null when the value is missing entirely. */
  value: Node | null;
  /** The value node as written (an alias stays an alias), used for locations. */
  written: Node | null;
  path: ManifestPath;
}

/** Collects diagnostics with locations for one workflow.yaml. */
export interface ValidationContext {
  readonly file: string;
  readonly text: string;
  readonly diagnostics: Diagnostic[];
  readonly locate: ManifestLocator;
  /** Follows an alias to its anchored node; other nodes are returned as they are. */
  resolve(node: unknown): Node | null;
  /** Records an error (or a warning) about an entry, located at its value or at its key. */
  report(code: ErrorCode, message: string, entry: ManifestEntry, options?: ReportOptions): void;
  /** The plain JavaScript value of a node, aliases followed (their limits are checked before validation). */
  toJS(node: Node | null): unknown;
  /** How many error-severity diagnostics there are so far; validators compare it to know if a part was valid. */
  errorCount(): number;
  /** The source text of a node, for quoting what the author wrote. */
  sourceOf(node: Node | null): string | undefined;
}

export interface ReportOptions {
  /** Locate the finding at the key rather than the value. */
  at?: 'key' | 'value';
  severity?: Diagnostic['severity'];
  /** The field the finding is about when it differs from the entry's own path (e.g. a missing child). */
  path?: ManifestPath;
}

/** Creates the context of one validation run. */
export function createValidationContext(options: {
  file: string;
  text: string;
  lineCounter: LineCounter;
  locate: ManifestLocator;
  aliases: AliasIndex;
}): ValidationContext {
  const {file, text, lineCounter, locate, aliases} = options;
  const diagnostics: Diagnostic[] = [];
  // Kept as a count: validators ask after each part, and counting the list each time is quadratic.
  let errors = 0;

  const locationOf = (entry: ManifestEntry, at: 'key' | 'value'): SourceLocation => {
    const keyLocation = nodeLocation(file, lineCounter, entry.keyNode);
    if (at === 'key' || prefersKeyLocation(entry.written)) {
      return keyLocation ?? nodeLocation(file, lineCounter, entry.written) ?? locate(entry.path);
    }
    return nodeLocation(file, lineCounter, entry.written) ?? keyLocation ?? locate(entry.path);
  };

  return {
    file,
    text,
    diagnostics,
    locate,
    resolve(node) {
      return aliases.resolve(node) ?? null;
    },
    report(code, message, entry, reportOptions = {}) {
      const severity = reportOptions.severity ?? 'error';
      if (severity === 'error') errors++;
      diagnostics.push({
        code,
        severity,
        message,
        location: locationOf(entry, reportOptions.at ?? 'value'),
        path: formatPath(reportOptions.path ?? entry.path),
      });
    },
    toJS(node) {
      return node === null ? null : aliases.toJS(node);
    },
    errorCount() {
      return errors;
    },
    sourceOf(node) {
      if (node?.range == null) return undefined;
      return text.slice(node.range[0], node.range[1]);
    },
  };
}

/** Names the kind of value a node holds, for messages such as "must be a string; got a list". */
export function describeValue(node: Node | null): string {
  if (node === null) return 'nothing';
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (!isScalar(node)) return 'an unsupported value';
  const value = node.value;
  if (value === null) return 'an empty value';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (typeof value === 'number' || typeof value === 'bigint') return `the number ${String(value)}`;
  if (typeof value === 'boolean') return `the boolean ${String(value)}`;
  return 'a value that is not text';
}

/** Quotes author text for a message, shortened so one long value cannot swamp the message. */
export function quote(text: string, maxLength = 80): string {
  const chars = [...text];
  const shown = chars.length > maxLength ? `${chars.slice(0, maxLength).join('')}…` : text;
  return `'${shown}'`;
}
