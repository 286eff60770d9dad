import assert from 'node:assert/strict';
import {test} from 'node:test';
import {formatPath, parseManifest} from '../../../src/manifest/index.ts';
import {baseManifest, file} from './fixtures.ts';

const text = `${baseManifest}mcp:
  servers:
    github:
      type: http
      url: https://api.githubcopilot.com/mcp/
      headers: {Authorization: "Bearer {env:TOKEN}"}
    empty:
telemetry:
  exporters:
    - type: file
      path: t.jsonl
    - {type: otlp, protocol: grpc, endpoint: "http://localhost:4317"}
`;
const {locate} = parseManifest(text, file);
const at = (line: number, column: number) => ({file, line, column});

test('locate finds scalar values', () => {
  assert.deepEqual(locate(['name']), at(1, 7));
  assert.deepEqual(locate(['mcp', 'servers', 'github', 'url']), at(9, 12));
  assert.deepEqual(locate(['mcp', 'servers', 'github', 'headers', 'Authorization']), at(10, 32));
  assert.deepEqual(locate(['telemetry', 'exporters', 0, 'path']), at(15, 13));
  assert.deepEqual(locate(['telemetry', 'exporters', 1, 'protocol']), at(16, 30));
});

test('locate points at the key of block collections and empty values, at flow collections themselves', () => {
  assert.deepEqual(locate(['mcp']), at(5, 1));
  assert.deepEqual(locate(['mcp', 'servers', 'github']), at(7, 5));
  assert.deepEqual(locate(['mcp', 'servers', 'empty']), at(11, 5));
  assert.deepEqual(locate(['mcp', 'servers', 'github', 'headers']), at(10, 16));
  assert.deepEqual(locate(['telemetry', 'exporters', 0]), at(14, 7));
  assert.deepEqual(locate(['telemetry', 'exporters', 1]), at(16, 7));
});

test("locate with target 'key' points at the key", () => {
  assert.deepEqual(locate(['mcp', 'servers', 'github', 'url'], 'key'), at(9, 7));
  assert.deepEqual(locate(['name'], 'key'), at(1, 1));
});

test('locate falls back to the nearest existing ancestor', () => {
  assert.deepEqual(locate(['mcp', 'servers', 'github', 'auth', 'clientId']), at(7, 5));
  assert.deepEqual(locate(['mcp', 'servers', 'missing', 'url']), at(6, 3));
  assert.deepEqual(locate(['telemetry', 'exporters', 5]), at(13, 3));
  assert.deepEqual(locate(['name', 'deeper']), at(1, 7));
  assert.deepEqual(locate(['agents']), at(1, 1));
  assert.deepEqual(locate([]), at(1, 1));
});

test('locate falls back to line 1, column 1 without a document, and the root after leading comments', () => {
  assert.deepEqual(parseManifest('', file).locate(['name']), at(1, 1));
  assert.deepEqual(parseManifest('# comment\n\nname: x\n', file).locate(['version']), at(3, 1));
  // Malformed documents still locate what parsed.
  assert.deepEqual(parseManifest('name: x\nname: y\n', file).locate(['name']), at(1, 7));
});

test('locate follows aliases but reports where the alias is written', () => {
  const result = parseManifest('a: &x {b: 1}\nc: *x\n', file);
  assert.deepEqual(result.locate(['c']), at(2, 4));
  assert.deepEqual(result.locate(['c', 'b']), at(1, 11));
});

test('formatPath writes dotted paths with indexes and quotes unusual names', () => {
  assert.equal(formatPath(['mcp', 'servers', 'github', 'url']), 'mcp.servers.github.url');
  assert.equal(formatPath(['telemetry', 'exporters', 0, 'path']), 'telemetry.exporters[0].path');
  assert.equal(formatPath(['headers', 'X.Custom Header']), 'headers["X.Custom Header"]');
  assert.equal(formatPath(['servers', '9lives']), 'servers.9lives');
  assert.equal(formatPath([]), '');
});
