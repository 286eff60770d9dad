import assert from 'node:assert/strict';
import {test} from 'node:test';
import {otlpProtocols} from '../../../src/manifest/index.ts';
import {assertAt, assertValid, codesOf, onlyDiagnostic, parseWith} from './fixtures.ts';

/** The base manifest with one telemetry exporter, each line indented under `- ` (line 7 is its first). */
const withExporter = (...lines: string[]) =>
  parseWith(
    [
      'telemetry:',
      '  exporters:',
      ...lines.map((line, index) => `${index === 0 ? '    - ' : '      '}${line}`),
      '',
    ].join('\n'),
  );

test('file and otlp exporters of every protocol are valid', () => {
  assert.deepEqual(otlpProtocols, ['http/json', 'http/protobuf', 'grpc']);
  for (const protocol of otlpProtocols) {
    const result = withExporter(
      'type: otlp',
      `protocol: ${protocol}`,
      'endpoint: https://otel.example.com:4317',
    );
    assertValid(result);
    assert.deepEqual(result.manifest?.telemetry, {
      exporters: [{type: 'otlp', protocol, endpoint: 'https://otel.example.com:4317'}],
    });
  }
  const file = withExporter('type: file', 'path: ~/traces/run.jsonl');
  assert.deepEqual(file.manifest?.telemetry, {exporters: [{type: 'file', path: '~/traces/run.jsonl'}]});
});

test('an empty exporters list is valid', () => {
  assert.deepEqual(parseWith('telemetry:\n  exporters: []\n').manifest?.telemetry, {exporters: []});
});

test('telemetry must be a mapping with an exporters list', () => {
  assert.deepEqual(codesOf(parseWith('telemetry: file\n')), ['STRATOS_MANIFEST_FIELD_INVALID']);
  const missing = onlyDiagnostic(parseWith('telemetry: {}\n'), 'STRATOS_MANIFEST_FIELD_MISSING');
  assert.equal(missing.path, 'telemetry.exporters');
  const notList = onlyDiagnostic(
    parseWith('telemetry:\n  exporters: {type: file}\n'),
    'STRATOS_MANIFEST_FIELD_INVALID',
  );
  assertAt(notList, 6, 14, 'telemetry.exporters');
  const unknown = onlyDiagnostic(
    parseWith('telemetry:\n  exporters: []\n  sampleRate: 1\n'),
    'STRATOS_MANIFEST_FIELD_UNKNOWN',
  );
  assertAt(unknown, 7, 3, 'telemetry.sampleRate');
});

test('exporter type is required and must be file or otlp', () => {
  assertAt(
    onlyDiagnostic(withExporter('path: x'), 'STRATOS_MANIFEST_FIELD_MISSING'),
    7,
    7,
    'telemetry.exporters[0].type',
  );
  const wrong = onlyDiagnostic(withExporter('type: zipkin'), 'STRATOS_MANIFEST_FIELD_INVALID');
  assertAt(wrong, 7, 13, 'telemetry.exporters[0].type');
  assert.match(wrong.message, /must be 'file' or 'otlp'/);
  assertAt(
    onlyDiagnostic(parseWith('telemetry:\n  exporters: [file]\n'), 'STRATOS_MANIFEST_FIELD_INVALID'),
    6,
    15,
    'telemetry.exporters[0]',
  );
});

test('file exporters need a non-empty path and allow nothing else', () => {
  assertAt(
    onlyDiagnostic(withExporter('type: file'), 'STRATOS_MANIFEST_FIELD_MISSING'),
    7,
    7,
    'telemetry.exporters[0].path',
  );
  assert.deepEqual(codesOf(withExporter('type: file', 'path: ""')), ['STRATOS_MANIFEST_FIELD_INVALID']);
  const unknown = onlyDiagnostic(
    withExporter('type: file', 'path: t.jsonl', 'endpoint: http://x'),
    'STRATOS_MANIFEST_FIELD_UNKNOWN',
  );
  assertAt(unknown, 9, 7, 'telemetry.exporters[0].endpoint');
  assert.match(unknown.message, /Allowed fields are type, path;/);
});

test('otlp exporters need a known protocol and an http(s) endpoint; headers are strings', () => {
  const result = withExporter(
    'type: otlp',
    'protocol: http',
    'endpoint: localhost:4317',
    'headers: {k: 1}',
    'path: x',
  );
  assert.deepEqual(
    result.diagnostics.map((d) => [d.code, d.path, d.location?.line, d.location?.column]),
    [
      ['STRATOS_MANIFEST_FIELD_INVALID', 'telemetry.exporters[0].protocol', 8, 17],
      ['STRATOS_MANIFEST_FIELD_INVALID', 'telemetry.exporters[0].endpoint', 9, 17],
      ['STRATOS_MANIFEST_FIELD_INVALID', 'telemetry.exporters[0].headers.k', 10, 20],
      ['STRATOS_MANIFEST_FIELD_UNKNOWN', 'telemetry.exporters[0].path', 11, 7],
    ],
  );
  assert.match(
    result.diagnostics[0]?.message ?? '',
    /must be one of http\/json, http\/protobuf, grpc; got the string 'http'/,
  );
  const missing = withExporter('type: otlp');
  assert.deepEqual(
    missing.diagnostics.map((d) => d.path),
    ['telemetry.exporters[0].protocol', 'telemetry.exporters[0].endpoint'],
  );
});

test('every exporter is checked', () => {
  const result = parseWith(
    'telemetry:\n  exporters:\n    - {type: file}\n    - {type: otlp, protocol: grpc}\n    - {type: file, path: ok}\n',
  );
  assert.deepEqual(
    result.diagnostics.map((d) => d.path),
    ['telemetry.exporters[0].path', 'telemetry.exporters[1].endpoint'],
  );
});
