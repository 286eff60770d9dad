/**
 * The limits that keep a hostile or broken workflow.yaml cheap to reject: a size cap checked before the file is
 * read or parsed, and a nesting-depth cap checked on the text in one pass before the YAML parser (whose recursion
 * would otherwise overflow the stack) sees it. Real manifests are a few kilobytes and a handful of levels deep.
 */
import type {Diagnostic} from '../errors/index.ts';

/** workflow.yaml may be at most this many bytes (1 MiB). */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/** workflow.yaml may have at most this many lines (the YAML parser's cost grows with lines, even blank ones). */
export const MAX_MANIFEST_LINES = 10_000;

/** Mappings and lists may nest at most this deep (block indentation levels plus flow brackets). */
export const MAX_MANIFEST_DEPTH = 64;

/** At most this many findings are reported for one manifest; the rest are counted in one last diagnostic. */
export const MAX_MANIFEST_DIAGNOSTICS = 100;

/** The diagnostic of a manifest over the size cap (or, with `lines`, over the line cap). */
export function manifestTooLarge(file: string, bytes: number, lines?: number): Diagnostic {
  const what =
    lines === undefined
      ? `is ${formatBytes(bytes)}; the limit is ${formatBytes(MAX_MANIFEST_BYTES)}`
      : `has ${lines} lines; the limit is ${MAX_MANIFEST_LINES.toLocaleString('en-US')}`;
  return {
    code: 'STRATOS_MANIFEST_TOO_LARGE',
    severity: 'error',
    message: `workflow.yaml ${what}. A manifest holds names, descriptions and settings: move large text into prompt files and remove what does not belong.`,
    location: {file, line: 1, column: 1},
  };
}

/** The size or line-count diagnostic of a manifest's text, or undefined when it is within both caps. */
export function checkManifestSize(text: string, file: string): Diagnostic | undefined {
  const bytes = text.length > MAX_MANIFEST_BYTES / 4 ? Buffer.byteLength(text, 'utf8') : text.length;
  if (bytes > MAX_MANIFEST_BYTES) return manifestTooLarge(file, bytes);
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines > MAX_MANIFEST_LINES ? manifestTooLarge(file, bytes, lines) : undefined;
}

/** The first place the text nests deeper than MAX_MANIFEST_DEPTH, as a diagnostic, or undefined. */
export function checkManifestDepth(text: string, file: string): Diagnostic | undefined {
  const at = findYamlDepthProblem(text, MAX_MANIFEST_DEPTH);
  return at === undefined ? undefined : tooDeep(file, at.line, at.column);
}

/**
 * The first place (1-based line and column) where YAML text nests mappings and lists deeper than `maxDepth`, or
 * undefined. Checked before the YAML parser, whose recursion would otherwise overflow the stack on a hostile
 * file; workflow.yaml and test case files both use it. Linear in the text: block levels are counted from
 * indentation, flow levels from brackets; quoted scalars, comments and block scalar (`|`, `>`) content are
 * skipped, as the YAML parser would read them.
 */
export function findYamlDepthProblem(
  text: string,
  maxDepth: number,
): {line: number; column: number} | undefined {
  const indents: number[] = [];
  let flow = 0;
  let quote: '"' | "'" | undefined;
  /** The indentation of the key that opened a block scalar: more indented lines are its text. */
  let blockScalarIndent: number | undefined;
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const indent = line.length - line.trimStart().length;
    if (blockScalarIndent !== undefined) {
      if (line.trim() === '' || indent > blockScalarIndent) continue;
      blockScalarIndent = undefined;
    }
    // Where the line's content starts: after indentation and "- " list markers, each of which opens a level.
    let start = indent;
    const markers: number[] = [];
    while (line[start] === '-' && (line[start + 1] === ' ' || line[start + 1] === undefined)) {
      markers.push(start);
      start += 1;
      while (line[start] === ' ') start++;
    }
    const content = line.slice(start).trim();
    if (
      quote === undefined &&
      flow === 0 &&
      (markers.length > 0 || (content !== '' && !content.startsWith('#')))
    ) {
      const first = markers[0] ?? start;
      while (indents.length > 0 && (indents.at(-1) ?? 0) >= first) indents.pop();
      indents.push(...markers);
      if (content !== '' && !content.startsWith('#')) indents.push(start);
      if (indents.length > maxDepth) return {line: index + 1, column: start + 1};
    }
    for (let i = start; i < line.length; i++) {
      const char = line[i];
      if (quote !== undefined) {
        if (char === '\\' && quote === '"') i++;
        else if (char === quote) quote = undefined;
        continue;
      }
      const previous = i === start ? ' ' : (line[i - 1] ?? ' ');
      if (char === '#' && (previous === ' ' || previous === '\t')) break;
      if ((char === '"' || char === "'") && opensScalar(line, i, start)) quote = char;
      else if (char === '[' || char === '{') flow++;
      else if ((char === ']' || char === '}') && flow > 0) flow--;
      if (indents.length + flow > maxDepth) return {line: index + 1, column: i + 1};
    }
    if (quote === undefined && flow === 0 && /(?:^|[:\s])[|>][-+1-9]{0,2}\s*(?:#.*)?$/.test(content)) {
      blockScalarIndent = indent;
    }
  }
  return undefined;
}

function tooDeep(file: string, line: number, column: number): Diagnostic {
  return {
    code: 'STRATOS_MANIFEST_TOO_DEEP',
    severity: 'error',
    message: `workflow.yaml nests mappings and lists more than ${MAX_MANIFEST_DEPTH} levels deep at line ${line}, column ${column}. Flatten the structure; no manifest field needs that depth.`,
    location: {file, line, column},
  };
}

/** A quote character opens a quoted scalar only where a scalar starts: after `: `, `- `, `[`, `{`, `,` or first. */
function opensScalar(line: string, at: number, start: number): boolean {
  let i = at - 1;
  while (i >= start && (line[i] === ' ' || line[i] === '\t')) i--;
  if (i < start) return true;
  const before = line[i];
  if (before === '[' || before === '{' || before === ',') return true;
  return (before === ':' || before === '?' || before === '-') && i < at - 1;
}

/** The first MAX_MANIFEST_DIAGNOSTICS findings, and one more that counts the rest. */
export function capManifestDiagnostics(diagnostics: Diagnostic[], file: string): Diagnostic[] {
  if (diagnostics.length <= MAX_MANIFEST_DIAGNOSTICS) return diagnostics;
  const rest = diagnostics.length - MAX_MANIFEST_DIAGNOSTICS;
  const restHasErrors = diagnostics.slice(MAX_MANIFEST_DIAGNOSTICS).some((d) => d.severity === 'error');
  return [
    ...diagnostics.slice(0, MAX_MANIFEST_DIAGNOSTICS),
    {
      code: 'STRATOS_MANIFEST_PROBLEMS_TRUNCATED',
      severity: restHasErrors ? 'error' : 'warning',
      message: `workflow.yaml has ${rest} more problems that are not listed; fix the ones above first.`,
      location: {file, line: 1, column: 1},
    },
  ];
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
    : `${Math.ceil(bytes / 1024)} KiB`;
}
