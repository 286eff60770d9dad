import assert from 'node:assert/strict';
import {test} from 'node:test';
import {assertAt, assertValid, codesOf, onlyDiagnostic, parseWith} from './fixtures.ts';

test('agents and decisions are maps of name to settings, passed through unvalidated', () => {
  const result = parseWith(
    'agents:\n  reviewer:\n    anything: [1, 2]\n    nested: {deep: true}\ndecisions:\n  triage: {}\n',
  );
  assertValid(result);
  assert.deepEqual(result.manifest?.agents, {reviewer: {anything: [1, 2], nested: {deep: true}}});
  assert.deepEqual(result.manifest?.decisions, {triage: {}});
});

test('an empty agents map is valid; a non-mapping section is invalid', () => {
  assert.deepEqual(parseWith('agents: {}\n').manifest?.agents, {});
  assertAt(onlyDiagnostic(parseWith('agents: [a, b]\n'), 'STRATOS_MANIFEST_FIELD_INVALID'), 5, 9, 'agents');
  assertAt(onlyDiagnostic(parseWith('decisions:\n'), 'STRATOS_MANIFEST_FIELD_INVALID'), 5, 1, 'decisions');
});

test('a non-mapping entry is STRATOS_MANIFEST_FIELD_INVALID at the entry', () => {
  const result = parseWith('agents:\n  a: claude\n  b:\n  c: {}\ndecisions:\n  d: [x]\n');
  assert.deepEqual(codesOf(result), [
    'STRATOS_MANIFEST_FIELD_INVALID',
    'STRATOS_MANIFEST_FIELD_INVALID',
    'STRATOS_MANIFEST_FIELD_INVALID',
  ]);
  assert.deepEqual(
    result.diagnostics.map((d) => [d.path, d.location?.line, d.location?.column]),
    [
      ['agents.a', 6, 6],
      ['agents.b', 7, 3],
      ['decisions.d', 10, 6],
    ],
  );
  assert.match(
    result.diagnostics[0]?.message ?? '',
    /^workflow\.yaml field 'agents\.a' must be a mapping of agent settings; got the string 'claude'\.$/,
  );
  assert.equal(result.manifest, undefined);
});

test('an alias bomb in agent settings is reported instead of expanding', () => {
  const lines = ['agents:', '  a: &a0 {x: 1}'];
  const refs = (n: number) => Array.from({length: 10}, () => `*a${n}`).join(', ');
  for (let n = 1; n <= 6; n++) lines.push(`  a${n}: &a${n} {v: [${refs(n - 1)}]}`);
  const result = parseWith(`${lines.join('\n')}\n`);
  // Level 4 repeats level 3 (3,333 values) ten times: the limit is passed at its second alias, nothing expanded.
  const diagnostic = onlyDiagnostic(result, 'STRATOS_MANIFEST_ALIAS_LIMIT');
  assert.match(diagnostic.message, /more than 10,000 values/);
  assertAt(diagnostic, 10, 21);
  assert.equal(result.manifest, undefined);
});
