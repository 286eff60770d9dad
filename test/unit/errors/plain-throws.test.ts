// Every failure a user can see is a StratosError with a listed code (plain `throw new Error` once remained in
// the harness adapters, OAuth provider callbacks, run folders ...). This scan fails on any plain
// `throw new Error(` / `reject(new Error(` (or TypeError, RangeError ...) in src/ that is not on the allow-list
// below, and on an allow-list entry that no longer matches anything (so the list cannot grow stale).
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

const src = fileURLToPath(new URL('../../../src/', import.meta.url));

/** A plain error raised or rejected with; `Error(`-named subclasses of StratosError do not match. */
const plainThrow = /\b(?:throw|reject\()\s*new (?:Error|TypeError|RangeError|SyntaxError|ReferenceError)\(/;

/** Allowed plain throws: each names its file, a piece of its line, and why no user ever sees it as it is. */
const allowed: {file: string; line: string; reason: string}[] = [
  {
    file: 'agents/harnesses/registry.ts',
    line: "No harness '",
    reason:
      'internal invariant: harness ids are validated (STRATOS_AGENT_CONFIG_INVALID) before any lookup, so an unregistered id is a bug in Stratos.',
  },
  {
    file: 'viewer/page/dom.ts',
    line: 'response.status',
    reason:
      "browser code of the runs page: the page shows the server's own message; nothing there has an error envelope.",
  },
];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, {withFileTypes: true}).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

test('no plain Error is thrown or rejected with in src/ outside the allow-list of internal invariants', () => {
  const found: {file: string; line: number; text: string}[] = [];
  for (const path of sourceFiles(src)) {
    const file = relative(src, path).split('\\').join('/');
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((text, index) => {
        if (plainThrow.test(text)) found.push({file, line: index + 1, text: text.trim()});
      });
  }
  const used = new Set<number>();
  const unlisted = found.filter((hit) => {
    // Each entry covers one line: the first unused entry of the file whose piece the line contains.
    const entry = allowed.findIndex(
      (a, index) => !used.has(index) && a.file === hit.file && hit.text.includes(a.line),
    );
    if (entry === -1) return true;
    used.add(entry);
    return false;
  });
  assert.deepEqual(
    unlisted.map((hit) => `${hit.file}:${hit.line}: ${hit.text}`),
    [],
    'throw a StratosError with a code from src/errors/codes.ts (add one only where none fits), or list the line here with the reason no user can see it',
  );
  const stale = allowed.filter((_, index) => !used.has(index));
  assert.deepEqual(stale, [], 'allow-list entries that match no plain throw any more: remove them');
});

test('the scan recognises the forms it must catch, and not a StratosError', () => {
  assert.ok(plainThrow.test("throw new Error('x')"));
  assert.ok(plainThrow.test("  if (x) throw new TypeError('x');"));
  assert.ok(plainThrow.test("() => reject(new Error('late'))"));
  assert.ok(plainThrow.test("return Promise.reject(new Error('x'))"));
  assert.equal(plainThrow.test("throw new StratosError('STRATOS_INTERNAL', 'x')"), false);
  assert.equal(plainThrow.test("throw new AgentRunError('x', {agent, harness})"), false);
});
