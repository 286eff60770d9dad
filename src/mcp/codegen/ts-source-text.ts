/**
 * Safe building blocks of generated TypeScript text. Every string that comes from a server (names, descriptions,
 * literal values) reaches the output only through these helpers, so a schema cannot inject code.
 */

const identifierPattern = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const jsonEscapePattern = /\\(?:u[0-9a-fA-F]{4}|.)|'/g;

/** True when `text` can be written as a bare property name or identifier. */
export function isIdentifierName(text: string): boolean {
  return identifierPattern.test(text);
}

/**
 * A single-quoted string literal for `text`. It starts from `JSON.stringify` (which escapes backslashes, quotes
 * and control characters) and only swaps the quote style, so the result is as safe as JSON.
 */
export function quoteString(text: string): string {
  const json = JSON.stringify(text);
  const body = json
    .slice(1, -1)
    .replace(jsonEscapePattern, (match) => (match === "'" ? "\\'" : match === '\\"' ? '"' : match));
  return `'${body}'`;
}

/** A property name for an object type or literal: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return isIdentifierName(name) ? name : quoteString(name);
}

/**
 * A JSDoc block from paragraphs of free text, indented by `indent`; empty when there is no text.
 * `*\/` is broken up so server text cannot end the comment early.
 */
export function formatJsDoc(paragraphs: readonly (string | undefined)[], indent: string): string {
  const lines: string[] = [];
  for (const paragraph of paragraphs) {
    if (paragraph === undefined || paragraph.trim() === '') continue;
    if (lines.length > 0) lines.push('');
    for (const line of paragraph.trim().split(/\r\n|\r|\n|\u2028|\u2029/)) {
      lines.push(line.replaceAll('*/', '*\\/').trimEnd());
    }
  }
  if (lines.length === 0) return '';
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`)).join('\n')}\n${indent} */\n`;
}

/** `text` as a JSDoc-safe inline fragment, such as a tool name inside a sentence. */
export function inlineDocText(text: string): string {
  return text.replaceAll('*/', '*\\/').replace(/\r\n|\r|\n|\u2028|\u2029/g, ' ');
}
