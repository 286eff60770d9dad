import assert from 'node:assert/strict';
import {test} from 'node:test';
import {
  entrypointProblem,
  isSemanticVersion,
  nameProblem,
  parseManifest,
} from '../../../src/manifest/index.ts';
import {assertAt, assertValid, codesOf, file, onlyDiagnostic} from './fixtures.ts';

const withField = (field: 'name' | 'version' | 'entrypoint', value: string) => {
  const lines = {
    name: 'name: pr-review',
    version: 'version: "1.0.0"',
    entrypoint: 'entrypoint: workflow.ts',
  };
  lines[field] = `${field}: ${value}`;
  const text = [lines.name, 'shortDescription: S.', 'longDescription: L.', lines.version, lines.entrypoint];
  return parseManifest(text.join('\n'), file);
};

test('valid workflow names', () => {
  for (const name of ['a', 'pr-review', 'deploy2', 'a1-b2-c3', 'x'.repeat(64)]) {
    assert.equal(nameProblem(name), undefined, name);
    assertValid(withField('name', name));
  }
});

test('invalid workflow names are STRATOS_MANIFEST_NAME_INVALID at the value', () => {
  for (const name of [
    'PR-review',
    'pr_review',
    '-pr',
    'pr-',
    'pr--review',
    '1pr',
    'pr review',
    'prévu',
    '"x"',
  ]) {
    const result = withField('name', JSON.stringify(name));
    const diagnostic = onlyDiagnostic(result, 'STRATOS_MANIFEST_NAME_INVALID');
    assertAt(diagnostic, 1, 7, 'name');
    assert.match(diagnostic.message, /lowercase kebab-case/, name);
  }
});

test('a name of 65 characters is too long; the message gives the count', () => {
  const diagnostic = onlyDiagnostic(withField('name', 'a'.repeat(65)), 'STRATOS_MANIFEST_NAME_INVALID');
  assert.match(diagnostic.message, /has 65 characters; the limit is 64/);
});

test('an invalid name message suggests a kebab-case spelling', () => {
  const diagnostic = onlyDiagnostic(withField('name', 'PR_Review'), 'STRATOS_MANIFEST_NAME_INVALID');
  assert.match(diagnostic.message, /such as 'pr-review'/);
  assert.match(diagnostic.message, /^workflow\.yaml field 'name' 'PR_Review' is invalid: /);
});

test('a name that is not a string is STRATOS_MANIFEST_NAME_INVALID', () => {
  assert.deepEqual(codesOf(withField('name', '123')), ['STRATOS_MANIFEST_NAME_INVALID']);
  assert.deepEqual(codesOf(withField('name', '[a]')), ['STRATOS_MANIFEST_NAME_INVALID']);
});

test('semantic versions follow the semver.org 2.0.0 grammar', () => {
  for (const version of [
    '0.0.0',
    '1.0.0',
    '10.20.30',
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-0.3.7',
    '1.0.0+20130313144700',
    '1.0.0-beta+exp.sha.5114f85',
    '1.0.0-x-y-z.--',
  ]) {
    assert.ok(isSemanticVersion(version), version);
    assertValid(withField('version', JSON.stringify(version)));
  }
  for (const version of [
    '1',
    '1.0',
    '01.0.0',
    '1.01.0',
    '1.0.0-',
    '1.0.0-01',
    '1.0.0+',
    'v1.0.0',
    '1.0.0 ',
    ' 1.0.0',
    '1.0.0.0',
    '1.0.0-a..b',
    '',
  ]) {
    assert.equal(isSemanticVersion(version), false, version);
  }
});

test('an unquoted YAML number version is invalid and the message suggests quoting', () => {
  const result = withField('version', '1.0');
  const diagnostic = onlyDiagnostic(result, 'STRATOS_MANIFEST_VERSION_INVALID');
  assertAt(diagnostic, 4, 10, 'version');
  assert.equal(
    diagnostic.message,
    "workflow.yaml field 'version' must be a semantic version string; got the number 1.0, because YAML reads " +
      'unquoted 1.0 as a number. Quote a full semantic version, such as version: "1.0.0".',
  );
  assert.match(
    onlyDiagnostic(withField('version', '2'), 'STRATOS_MANIFEST_VERSION_INVALID').message,
    /"2\.0\.0"/,
  );
});

test('an unquoted full version is a string in YAML and is accepted', () => {
  const result = withField('version', '1.2.3');
  assertValid(result);
  assert.equal(result.manifest?.version, '1.2.3');
});

test('a leading v gets its own advice', () => {
  const diagnostic = onlyDiagnostic(withField('version', 'v1.2.3'), 'STRATOS_MANIFEST_VERSION_INVALID');
  assert.match(diagnostic.message, /Drop the leading 'v': "1\.2\.3"/);
});

test('a version that is not a scalar is invalid', () => {
  assert.deepEqual(codesOf(withField('version', '{major: 1}')), ['STRATOS_MANIFEST_VERSION_INVALID']);
  assert.deepEqual(codesOf(withField('version', 'true')), ['STRATOS_MANIFEST_VERSION_INVALID']);
});

test('valid entrypoints are relative .ts paths inside the folder', () => {
  for (const entrypoint of [
    'workflow.ts',
    './workflow.ts',
    'src/main.ts',
    'src\\main.ts',
    'a..b.ts',
    '.hidden/x.ts',
    'src/dist/main.ts',
    'src/generated/main.ts',
    'distribution/main.ts',
    'dist.ts',
    'node_modules.ts',
  ]) {
    assert.equal(entrypointProblem(entrypoint), undefined, entrypoint);
    const result = withField('entrypoint', JSON.stringify(entrypoint));
    assertValid(result);
    assert.equal(result.manifest?.entrypoint, entrypoint);
  }
});

test('invalid entrypoints are STRATOS_MANIFEST_ENTRYPOINT_INVALID with the reason', () => {
  const cases = [
    ['../workflow.ts', /leaves the workflow folder/],
    ['src/../../x.ts', /leaves the workflow folder/],
    ['src\\..\\..\\x.ts', /leaves the workflow folder/],
    ['/abs/workflow.ts', /absolute path/],
    ['\\\\server\\share\\x.ts', /absolute path/],
    ['C:/work/x.ts', /absolute path/],
    ['~/x.ts', /absolute path/],
    ['workflow.js', /ending in \.ts/],
    ['workflow.mts', /ending in \.ts/],
    ['workflow.TS', /ending in \.ts/],
    ['types.d.ts', /declaration file/],
    ['src/', /ending in \.ts/],
    ['', /is empty/],
    ['dist/main.ts', /inside dist\/, a folder Stratos writes and clears/],
    ['./dist/main.ts', /inside dist\//],
    ['DIST/main.ts', /inside dist\//],
    ['Dist\\main.ts', /inside dist\//],
    ['dist./main.ts', /inside dist\//],
    ['dist /main.ts', /inside dist\//],
    ['.//dist//deep/main.ts', /inside dist\//],
    ['generated/main.ts', /inside generated\//],
    ['GENERATED/mcp/x.ts', /inside generated\//],
    ['.generated/main.ts', /inside \.generated\//],
    ['node_modules/pkg/main.ts', /inside node_modules\//],
    ['src/Node_Modules/main.ts', /inside node_modules\//],
    ['ma\u0000in.ts', /control character/],
    ['src/line\nbreak.ts', /control character/],
    ['main.ts\u0085', /control character/],
  ] as const;
  for (const [entrypoint, reason] of cases) {
    assert.notEqual(entrypointProblem(entrypoint), undefined, entrypoint);
    const diagnostic = onlyDiagnostic(
      withField('entrypoint', JSON.stringify(entrypoint)),
      'STRATOS_MANIFEST_ENTRYPOINT_INVALID',
    );
    assertAt(diagnostic, 5, 13, 'entrypoint');
    assert.match(diagnostic.message, reason, entrypoint);
  }
});

test('an entrypoint that is not a string is STRATOS_MANIFEST_ENTRYPOINT_INVALID', () => {
  assert.deepEqual(codesOf(withField('entrypoint', '42')), ['STRATOS_MANIFEST_ENTRYPOINT_INVALID']);
});
