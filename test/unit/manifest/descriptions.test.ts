import assert from 'node:assert/strict';
import {test} from 'node:test';
import {
  countCodePoints,
  longDescriptionLimit,
  longDescriptionTarget,
  parseManifest,
  shortDescriptionLimit,
  shortDescriptionTarget,
} from '../../../src/manifest/index.ts';
import {
  assertAt,
  assertInvalid,
  assertValid,
  codesOf,
  file,
  manifestWithDescriptions,
  onlyDiagnostic,
} from './fixtures.ts';

const parseShort = (text: string) => parseManifest(manifestWithDescriptions(text), file);
const parseLong = (text: string) => parseManifest(manifestWithDescriptions('Short.', text), file);

test('the budget constants match docs/contributing/design-decisions.md', () => {
  assert.equal(shortDescriptionLimit, 400);
  assert.equal(shortDescriptionTarget, 200);
  assert.equal(longDescriptionLimit, 12000);
  assert.equal(longDescriptionTarget, 4000);
});

test('countCodePoints counts code points, not UTF-16 units or bytes', () => {
  assert.equal(countCodePoints(''), 0);
  assert.equal(countCodePoints('abc'), 3);
  assert.equal(countCodePoints('🚀'), 1);
  assert.equal('🚀'.length, 2);
  assert.equal(countCodePoints('日本語'), 3);
  assert.equal(countCodePoints('café'), 4);
  // A combining accent is its own code point; so is each part of a ZWJ emoji sequence.
  assert.equal(countCodePoints('e\u0301'), 2);
  assert.equal(countCodePoints('👩‍💻'), 3);
  assert.equal(countCodePoints(' a\nb '), 5);
});

test('shortDescription of exactly 400 code points is accepted with an over-target warning', () => {
  const result = parseShort('a'.repeat(400));
  assertValid(result);
  assert.deepEqual(codesOf(result), ['STRATOS_MANIFEST_DESCRIPTION_OVER_TARGET']);
  assert.equal(result.diagnostics[0]?.severity, 'warning');
  assert.equal(result.manifest?.shortDescription.length, 400);
});

test('shortDescription of 401 code points is an error that gives the count and the limit', () => {
  const result = parseShort('a'.repeat(401));
  assertInvalid(result);
  const diagnostic = onlyDiagnostic(result, 'STRATOS_MANIFEST_DESCRIPTION_TOO_LONG');
  assert.equal(diagnostic.severity, 'error');
  assert.equal(
    diagnostic.message,
    "workflow.yaml field 'shortDescription' has 401 code points; the limit is 400. Shorten it; the manual belongs in longDescription.",
  );
  // Over the limit is not also reported as over the target.
  assert.deepEqual(codesOf(result), ['STRATOS_MANIFEST_DESCRIPTION_TOO_LONG']);
  assertAt(diagnostic, 2, 19, 'shortDescription');
});

test('emoji count as one code point each at the boundary', () => {
  // 400 emoji are 800 UTF-16 units, still within the limit.
  assertValid(parseShort('🚀'.repeat(400)));
  const over = parseShort('🚀'.repeat(401));
  assert.match(onlyDiagnostic(over, 'STRATOS_MANIFEST_DESCRIPTION_TOO_LONG').message, /has 401 code points/);
});

test('CJK text and combining characters are counted per code point', () => {
  assertValid(parseShort('漢'.repeat(400)));
  assertInvalid(parseShort('漢'.repeat(401)));
  // 200 letters plus 200 combining accents are 400 code points.
  assertValid(parseShort('e\u0301'.repeat(200)));
  assertInvalid(parseShort(`${'e\u0301'.repeat(200)}x`));
});

test('surrounding spaces count toward the limit and are kept verbatim', () => {
  const text = ` ${'a'.repeat(398)} `;
  const result = parseShort(text);
  assertValid(result);
  assert.equal(result.manifest?.shortDescription, text);
  assertInvalid(parseShort(` ${'a'.repeat(399)} `));
});

test('shortDescription at the 200 target has no warning; 201 warns', () => {
  assert.deepEqual(parseShort('a'.repeat(200)).diagnostics, []);
  const result = parseShort('a'.repeat(201));
  assertValid(result);
  const warning = onlyDiagnostic(result, 'STRATOS_MANIFEST_DESCRIPTION_OVER_TARGET');
  assert.equal(warning.severity, 'warning');
  assert.match(warning.message, /201 code points, over the authoring target of about 200/);
});

test('longDescription limits: 12000 accepted, 12001 rejected, target 4000 warns above', () => {
  assert.deepEqual(parseLong('b'.repeat(4000)).diagnostics, []);
  const overTarget = parseLong('b'.repeat(4001));
  assertValid(overTarget);
  assert.deepEqual(codesOf(overTarget), ['STRATOS_MANIFEST_DESCRIPTION_OVER_TARGET']);
  const atLimit = parseLong('b'.repeat(12000));
  assertValid(atLimit);
  const overLimit = parseLong('b'.repeat(12001));
  assertInvalid(overLimit);
  assert.match(
    onlyDiagnostic(overLimit, 'STRATOS_MANIFEST_DESCRIPTION_TOO_LONG').message,
    /^workflow\.yaml field 'longDescription' has 12001 code points; the limit is 12000\./,
  );
});

test('line breaks count toward the longDescription limit', () => {
  const lines = `${'c'.repeat(99)}\n`.repeat(120);
  assert.equal(countCodePoints(lines), 12000);
  assertValid(parseLong(lines));
  assertInvalid(parseLong(`${lines}c`));
});

test('longDescription may contain line breaks, shortDescription may not', () => {
  assertValid(parseLong('line one\nline two\r\nline three\u2028four'));
});

for (const [name, char] of [
  ['line feed', '\n'],
  ['carriage return', '\r'],
  ['next line U+0085', '\u0085'],
  ['line separator U+2028', '\u2028'],
  ['paragraph separator U+2029', '\u2029'],
] as const) {
  test(`an internal ${name} in shortDescription is an error suggesting >-`, () => {
    const result = parseShort(`first${char}second`);
    assertInvalid(result);
    const diagnostic = onlyDiagnostic(result, 'STRATOS_MANIFEST_DESCRIPTION_LINE_BREAK');
    assert.match(diagnostic.message, /'>-'/);
    assertAt(diagnostic, 2, 19, 'shortDescription');
  });

  test(`a surrounding ${name} in shortDescription is allowed`, () => {
    const result = parseShort(`${char}first second${char}`);
    assertValid(result);
    assert.equal(result.manifest?.shortDescription, `${char}first second${char}`);
  });
}

test('YAML escapes \\N, \\L and \\P produce the Unicode breaks and are rejected inside the text', () => {
  for (const yamlEscape of ['\\N', '\\L', '\\P']) {
    const text = manifestWithDescriptions('x').replace('"x"', `"one${yamlEscape}two"`);
    assert.deepEqual(
      codesOf(parseManifest(text, file)),
      ['STRATOS_MANIFEST_DESCRIPTION_LINE_BREAK'],
      yamlEscape,
    );
  }
});

test('a > folded scalar ends with a newline, which is surrounding whitespace and allowed', () => {
  const text = [
    'name: pr-review',
    'shortDescription: >',
    '  Format a pull-request',
    '  review request.',
    'longDescription: Manual.',
    'version: "1.0.0"',
  ].join('\n');
  const result = parseManifest(text, file);
  assertValid(result);
  assert.equal(result.manifest?.shortDescription, 'Format a pull-request review request.\n');
});

test('a >- folded scalar joins lines into one paragraph without a trailing newline', () => {
  const text = [
    'name: pr-review',
    'shortDescription: >-',
    '  Format a pull-request',
    '  review request.',
    'longDescription: Manual.',
    'version: "1.0.0"',
  ].join('\n');
  assert.equal(parseManifest(text, file).manifest?.shortDescription, 'Format a pull-request review request.');
});

test('a folded scalar with a blank line keeps an internal line break and is rejected', () => {
  const text = [
    'name: pr-review',
    'shortDescription: >',
    '  First paragraph.',
    '',
    '  Second paragraph.',
    'longDescription: Manual.',
    'version: "1.0.0"',
  ].join('\n');
  const diagnostic = onlyDiagnostic(parseManifest(text, file), 'STRATOS_MANIFEST_DESCRIPTION_LINE_BREAK');
  assertAt(diagnostic, 2, 19);
});

test('a | literal block in shortDescription with two lines is rejected', () => {
  const text = [
    'name: pr-review',
    'shortDescription: |',
    '  one',
    '  two',
    'longDescription: M.',
    'version: "1.0.0"',
  ];
  assert.deepEqual(codesOf(parseManifest(text.join('\n'), file)), [
    'STRATOS_MANIFEST_DESCRIPTION_LINE_BREAK',
  ]);
});

test('blank descriptions are STRATOS_MANIFEST_DESCRIPTION_BLANK', () => {
  for (const blank of ['', '   ', '\n\t ', '\u0085', '\u2028']) {
    const result = parseManifest(manifestWithDescriptions(blank, blank), file);
    assertInvalid(result);
    assert.deepEqual(
      codesOf(result),
      ['STRATOS_MANIFEST_DESCRIPTION_BLANK', 'STRATOS_MANIFEST_DESCRIPTION_BLANK'],
      JSON.stringify(blank),
    );
  }
});

test('an empty description value (key with nothing after it) is blank, located at the key', () => {
  const text = ['name: pr-review', 'shortDescription:', 'longDescription: M.', 'version: "1.0.0"'].join('\n');
  const diagnostic = onlyDiagnostic(parseManifest(text, file), 'STRATOS_MANIFEST_DESCRIPTION_BLANK');
  assertAt(diagnostic, 2, 1, 'shortDescription');
  assert.match(diagnostic.message, /^workflow\.yaml field 'shortDescription' is blank\. Write /);
});

test('a description that is not a string is STRATOS_MANIFEST_FIELD_INVALID', () => {
  const text = [
    'name: pr-review',
    'shortDescription: 42',
    'longDescription: [a, b]',
    'version: "1.0.0"',
  ].join('\n');
  const result = parseManifest(text, file);
  assert.deepEqual(codesOf(result), ['STRATOS_MANIFEST_FIELD_INVALID', 'STRATOS_MANIFEST_FIELD_INVALID']);
  assert.match(result.diagnostics[0]?.message ?? '', /must be a string; got the number 42/);
  assert.match(result.diagnostics[1]?.message ?? '', /must be a string; got a list/);
});
