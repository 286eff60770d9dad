// Every error code that a JSDoc @throws names is raised somewhere: a documented code is a promise to callers who
// branch on it (once STRATOS_MCP_AUTH_FAILED was named in four @throws and raised nowhere).
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {errorCodes} from '../../../src/errors/codes.ts';

const src = fileURLToPath(new URL('../../../src/', import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, {withFileTypes: true}).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The codes named in @throws blocks (a wildcard such as `STRATOS_AUTH_*` names no single code). */
function documentedCodes(text: string): string[] {
  const codes: string[] = [];
  let inThrows = false;
  for (const line of text.split('\n')) {
    if (/@throws/.test(line)) inThrows = true;
    else if (/^\s*\*\s*@|\*\/|^\s*\*\s*$/.test(line)) inThrows = false;
    if (!inThrows) continue;
    for (const match of line.matchAll(/\bSTRATOS_[A-Z0-9_]+\b(?!\*)/g)) codes.push(match[0]);
  }
  return codes;
}

test('every code named by an @throws in src/ is raised in src/', () => {
  const files = sourceFiles(src);
  const raised = new Set<string>();
  const documented = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const where = relative(src, file);
    if (where !== join('errors', 'codes.ts')) {
      for (const match of text.matchAll(/['"](STRATOS_[A-Z0-9_]+)['"]/g)) raised.add(match[1]!);
    }
    for (const code of documentedCodes(text)) {
      documented.set(code, [...(documented.get(code) ?? []), where]);
    }
  }
  assert.ok(documented.size > 20, 'the scan finds the documented codes');
  const unknown = [...documented.keys()].filter((code) => !(code in errorCodes));
  assert.deepEqual(unknown, [], 'codes named in @throws that src/errors/codes.ts does not list');
  const neverRaised = [...documented].filter(([code]) => !raised.has(code));
  assert.deepEqual(neverRaised, [], 'codes named in @throws that nothing in src/ raises');
});
