// docs/errors.md lists exactly the codes of the one table in src/errors/codes.ts: none missing, none extra.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';
import {errorCodes} from '../../../src/errors/codes.ts';

const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');

/** The codes in the first column of the page's tables: rows such as | `STRATOS_X` | meaning |. */
function documentedCodes(markdown: string): string[] {
  return [...markdown.matchAll(/^\|\s*`(STRATOS_[A-Z0-9_]+)`\s*\|/gm)].map((match) => match[1]!);
}

test('docs/errors.md lists every code of src/errors/codes.ts exactly once', () => {
  const documented = documentedCodes(doc);
  const duplicates = documented.filter((code, index) => documented.indexOf(code) !== index);
  assert.deepEqual(duplicates, [], 'codes listed twice in docs/errors.md');
  const table = Object.keys(errorCodes);
  const missing = table.filter((code) => !documented.includes(code));
  const extra = documented.filter((code) => !table.includes(code));
  assert.deepEqual(missing, [], 'codes in src/errors/codes.ts that docs/errors.md does not list');
  assert.deepEqual(extra, [], 'codes in docs/errors.md that src/errors/codes.ts does not have');
});

test('every documented code has a meaning', () => {
  for (const match of doc.matchAll(/^\|\s*`(STRATOS_[A-Z0-9_]+)`\s*\|([^|]*)\|/gm)) {
    assert.ok(match[2]!.trim().length > 0, `${match[1]} has no meaning in docs/errors.md`);
  }
});
