import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {WorkflowManifest} from '../../../src/manifest/index.ts';
import {parseManifest} from '../../../src/manifest/index.ts';
import {
  assertAt,
  assertInvalid,
  assertValid,
  baseManifest,
  codesOf,
  file,
  onlyDiagnostic,
  parseWith,
} from './fixtures.ts';

const fullManifest = `# A full manifest with every section.
name: pr-review
shortDescription: >-
  Format a pull-request review request.
  Use before asking for a review; it does not fetch the pull request.
longDescription: |
  Supply repo in owner/name format and a positive pr_number.
  Example input: {"repo":"org/repo","pr_number":42}.
version: "1.2.3-beta.1+build.5"
entrypoint: src/main.ts
mcp:
  servers:
    github:
      type: http
      url: https://api.githubcopilot.com/mcp/
      headers:
        Authorization: "Bearer {env:GITHUB_TOKEN}"
    company:
      type: http
      url: https://mcp.example.com/mcp
      auth:
        type: oauth
        clientId: stratos-cli
        clientSecret: "{file:~/.stratos/secrets/company}"
        scope: read write
        callbackPort: 8765
        redirectUri: http://127.0.0.1:8765/mcp/oauth/callback
        clientMetadataUrl: https://example.com/oauth/client.json
    local:
      type: stdio
      command: node
      args: ["tools/server.js", "--verbose"]
      env:
        API_KEY: "{file:~/.stratos/secrets/service-key}"
agents:
  reviewer:
    harness: claude-code
    allowedMcps: [github]
decisions:
  triage:
    model: llama3
telemetry:
  exporters:
    - type: file
      path: traces/run.jsonl
    - type: otlp
      protocol: http/protobuf
      endpoint: http://localhost:4318/v1/traces
      headers:
        x-api-key: "{env:OTLP_KEY}"
`;

test('the specification example manifest is valid and gets the default entrypoint', () => {
  const text = [
    'name: pr-review',
    'shortDescription: Format a pull-request review request.',
    'longDescription: |',
    '  Supply repo in owner/name format and a positive pr_number.',
    '  Returns a request summary only.',
    'version: "1.0.0"',
  ].join('\n');
  const result = parseManifest(text, file);
  assert.deepEqual(result.diagnostics, []);
  assert.deepEqual(result.manifest, {
    name: 'pr-review',
    shortDescription: 'Format a pull-request review request.',
    longDescription:
      'Supply repo in owner/name format and a positive pr_number.\nReturns a request summary only.\n',
    version: '1.0.0',
    entrypoint: 'workflow.ts',
  });
  // exactOptionalPropertyTypes: absent sections are absent, not undefined.
  assert.deepEqual(Object.keys(result.manifest ?? {}), [
    'name',
    'shortDescription',
    'longDescription',
    'version',
    'entrypoint',
  ]);
});

test('a full manifest with mcp servers, agents, decisions and telemetry is parsed to the exact shape', () => {
  const result = parseManifest(fullManifest, file);
  assert.deepEqual(result.diagnostics, []);
  const expected: WorkflowManifest = {
    name: 'pr-review',
    shortDescription:
      'Format a pull-request review request. Use before asking for a review; it does not fetch the pull request.',
    longDescription:
      'Supply repo in owner/name format and a positive pr_number.\nExample input: {"repo":"org/repo","pr_number":42}.\n',
    version: '1.2.3-beta.1+build.5',
    entrypoint: 'src/main.ts',
    mcp: {
      servers: {
        github: {
          type: 'http',
          url: 'https://api.githubcopilot.com/mcp/',
          headers: {Authorization: 'Bearer {env:GITHUB_TOKEN}'},
        },
        company: {
          type: 'http',
          url: 'https://mcp.example.com/mcp',
          auth: {
            type: 'oauth',
            clientId: 'stratos-cli',
            clientSecret: '{file:~/.stratos/secrets/company}',
            scope: 'read write',
            callbackPort: 8765,
            redirectUri: 'http://127.0.0.1:8765/mcp/oauth/callback',
            clientMetadataUrl: 'https://example.com/oauth/client.json',
          },
        },
        local: {
          type: 'stdio',
          command: 'node',
          args: ['tools/server.js', '--verbose'],
          env: {API_KEY: '{file:~/.stratos/secrets/service-key}'},
        },
      },
    },
    agents: {reviewer: {harness: 'claude-code', allowedMcps: ['github']}},
    decisions: {triage: {model: 'llama3'}},
    telemetry: {
      exporters: [
        {type: 'file', path: 'traces/run.jsonl'},
        {
          type: 'otlp',
          protocol: 'http/protobuf',
          endpoint: 'http://localhost:4318/v1/traces',
          headers: {'x-api-key': '{env:OTLP_KEY}'},
        },
      ],
    },
  };
  assert.deepEqual(result.manifest, expected);
});

test('malformed YAML is STRATOS_MANIFEST_YAML_INVALID at the library position', () => {
  const result = parseManifest(`${baseManifest}mcp: [unclosed\nagents: {}\n`, file);
  assertInvalid(result);
  const diagnostic = result.diagnostics[0];
  assert.ok(diagnostic);
  assert.equal(diagnostic.code, 'STRATOS_MANIFEST_YAML_INVALID');
  assert.equal(diagnostic.location?.file, file);
  assert.equal(diagnostic.location?.line, 6);
  assert.match(
    diagnostic.message,
    /^workflow\.yaml is not valid YAML at line 6, column \d+: .+\. Fix the syntax there\.$/,
  );
  assert.ok(result.diagnostics.every((d) => d.code === 'STRATOS_MANIFEST_YAML_INVALID'));
});

test('a badly indented mapping is invalid YAML located where the library reports it', () => {
  const result = parseManifest('name: a\n  version: "1.0.0"\n', file);
  assertInvalid(result);
  assert.equal(result.diagnostics[0]?.code, 'STRATOS_MANIFEST_YAML_INVALID');
  assertAt(result.diagnostics[0]!, 1, 7);
  assert.match(result.diagnostics[0]?.message ?? '', /Nested mappings are not allowed in compact mappings/);
});

test('a duplicate key is STRATOS_MANIFEST_YAML_INVALID naming the key and its position', () => {
  const result = parseManifest(`${baseManifest}name: other\n`, file);
  assertInvalid(result);
  const diagnostic = onlyDiagnostic(result, 'STRATOS_MANIFEST_YAML_INVALID');
  assertAt(diagnostic, 5, 1);
  assert.equal(
    diagnostic.message,
    "workflow.yaml has the key 'name' more than once in the same mapping (line 5, column 1). Keep only one of them.",
  );
});

test('a duplicate key in a nested mapping is found too, quoted keys included', () => {
  const result = parseWith(
    'mcp:\n  servers:\n    a: {type: stdio, command: x}\n    "a": {type: stdio, command: y}\n',
  );
  const diagnostic = onlyDiagnostic(result, 'STRATOS_MANIFEST_YAML_INVALID');
  assertAt(diagnostic, 8, 5);
  assert.match(diagnostic.message, /the key 'a' more than once/);
});

test('several YAML documents in one file are invalid', () => {
  const result = parseManifest(`${baseManifest}---\nname: second\n`, file);
  assert.deepEqual(codesOf(result), ['STRATOS_MANIFEST_YAML_INVALID']);
  assert.equal(result.diagnostics[0]?.location?.line, 5);
});

test('an unknown tag and an undefined alias are invalid YAML', () => {
  assert.deepEqual(codesOf(parseWith('agents: !custom {a: {}}\n')), ['STRATOS_MANIFEST_YAML_INVALID']);
  const alias = parseWith('agents:\n  a: *missing\n');
  const diagnostic = onlyDiagnostic(alias, 'STRATOS_MANIFEST_YAML_INVALID');
  assertAt(diagnostic, 6, 6);
  assert.match(diagnostic.message, /alias '\*missing'/);
});

test('a top-level value that is not a mapping is STRATOS_MANIFEST_NOT_MAPPING', () => {
  for (const [text, line, column] of [
    ['- name: pr-review\n', 1, 1],
    ['just text\n', 1, 1],
    ['# comment\n42\n', 2, 1],
  ] as const) {
    const result = parseManifest(text, file);
    assertInvalid(result);
    assertAt(onlyDiagnostic(result, 'STRATOS_MANIFEST_NOT_MAPPING'), line, column);
  }
});

test('an empty or comment-only file is STRATOS_MANIFEST_NOT_MAPPING at line 1, column 1', () => {
  for (const text of ['', '\n\n', '# only a comment\n']) {
    const diagnostic = onlyDiagnostic(parseManifest(text, file), 'STRATOS_MANIFEST_NOT_MAPPING');
    assertAt(diagnostic, 1, 1);
    assert.match(diagnostic.message, /workflow\.yaml is empty\./);
  }
});

test('each missing required field is reported at the start of the mapping', () => {
  const result = parseManifest('# header comment\nentrypoint: workflow.ts\n', file);
  assertInvalid(result);
  assert.deepEqual(codesOf(result), [
    'STRATOS_MANIFEST_FIELD_MISSING',
    'STRATOS_MANIFEST_FIELD_MISSING',
    'STRATOS_MANIFEST_FIELD_MISSING',
    'STRATOS_MANIFEST_FIELD_MISSING',
  ]);
  assert.deepEqual(
    result.diagnostics.map((d) => d.path),
    ['name', 'shortDescription', 'longDescription', 'version'],
  );
  for (const diagnostic of result.diagnostics) assertAt(diagnostic, 2, 1);
  assert.equal(
    result.diagnostics[1]?.message,
    "workflow.yaml is missing the required field 'shortDescription' (catalog text that helps an agent select the workflow). Add it.",
  );
});

test('an unknown top-level field is reported at its key with the allowed fields', () => {
  const diagnostic = onlyDiagnostic(parseWith('inputs:\n  repo: string\n'), 'STRATOS_MANIFEST_FIELD_UNKNOWN');
  assertAt(diagnostic, 5, 1, 'inputs');
  assert.equal(
    diagnostic.message,
    "workflow.yaml has an unknown top-level field 'inputs'. Allowed fields are name, shortDescription, " +
      'longDescription, version, entrypoint, mcp, agents, decisions, telemetry, budget; remove or rename it.',
  );
});

test('a misspelt field gets a suggestion', () => {
  const result = parseWith('entryPoint: main.ts\ntelemetri: {}\n');
  assert.match(result.diagnostics[0]?.message ?? '', /'entryPoint'\. Did you mean 'entrypoint'\?/);
  assert.match(result.diagnostics[1]?.message ?? '', /'telemetri'\. Did you mean 'telemetry'\?/);
});

test('the legacy description field is rejected even beside the new fields', () => {
  const result = parseWith('description: Formats a review request.\n');
  assertInvalid(result);
  assert.deepEqual(codesOf(result), ['STRATOS_MANIFEST_LEGACY_DESCRIPTION']);
  const diagnostic = onlyDiagnostic(result, 'STRATOS_MANIFEST_LEGACY_DESCRIPTION');
  assertAt(diagnostic, 5, 1, 'description');
  assert.match(
    diagnostic.message,
    /'shortDescription' \(catalog text that helps an agent select the workflow/,
  );
  assert.match(diagnostic.message, /'longDescription' \(the manual for correct use\)/);
  assert.match(diagnostic.message, /no automatic migration/);
});

test('the legacy description alone also reports the two missing fields', () => {
  const result = parseManifest('name: pr-review\ndescription: Old text.\nversion: "1.0.0"\n', file);
  assert.deepEqual(codesOf(result).toSorted(), [
    'STRATOS_MANIFEST_FIELD_MISSING',
    'STRATOS_MANIFEST_FIELD_MISSING',
    'STRATOS_MANIFEST_LEGACY_DESCRIPTION',
  ]);
});

test('all problems are reported together, in source order', () => {
  const text = [
    'name: PR Review',
    'description: old',
    `shortDescription: "${'x'.repeat(431)}"`,
    'longDescription: "  "',
    'version: 1.0',
    'entrypoint: /abs/workflow.ts',
    'extra: true',
    'mcp:',
    '  servers:',
    '    gh: {type: http, url: "not a url", headers: {A: 1}}',
    'telemetry: {exporters: [{type: file}]}',
  ].join('\n');
  const result = parseManifest(text, file);
  assertInvalid(result);
  assert.deepEqual(codesOf(result), [
    'STRATOS_MANIFEST_NAME_INVALID',
    'STRATOS_MANIFEST_LEGACY_DESCRIPTION',
    'STRATOS_MANIFEST_DESCRIPTION_TOO_LONG',
    'STRATOS_MANIFEST_DESCRIPTION_BLANK',
    'STRATOS_MANIFEST_VERSION_INVALID',
    'STRATOS_MANIFEST_ENTRYPOINT_INVALID',
    'STRATOS_MANIFEST_FIELD_UNKNOWN',
    'STRATOS_MANIFEST_FIELD_INVALID',
    'STRATOS_MANIFEST_FIELD_INVALID',
    'STRATOS_MANIFEST_FIELD_MISSING',
  ]);
  assert.deepEqual(
    result.diagnostics.map((d) => [d.location?.line, d.location?.column]),
    [
      [1, 7],
      [2, 1],
      [3, 19],
      [4, 18],
      [5, 10],
      [6, 13],
      [7, 1],
      [10, 27],
      [10, 53],
      [11, 25],
    ],
  );
  assert.equal(
    result.diagnostics[2]?.message,
    "workflow.yaml field 'shortDescription' has 431 code points; the limit is 400. Shorten it; the manual belongs in longDescription.",
  );
});

test('warnings alone keep the manifest', () => {
  const result = parseManifest(
    `name: a\nshortDescription: "${'s'.repeat(250)}"\nlongDescription: "${'l'.repeat(5000)}"\nversion: "0.1.0"\n`,
    file,
  );
  assert.deepEqual(codesOf(result), [
    'STRATOS_MANIFEST_DESCRIPTION_OVER_TARGET',
    'STRATOS_MANIFEST_DESCRIPTION_OVER_TARGET',
  ]);
  assert.ok(result.diagnostics.every((d) => d.severity === 'warning'));
  assert.equal(result.manifest?.name, 'a');
});

test('every diagnostic carries the file, a 1-based line and column, and a path', () => {
  const result = parseWith('mcp: {servers: {x: {type: http}}}\nbogus: 1\n');
  assert.ok(result.diagnostics.length >= 2);
  for (const diagnostic of result.diagnostics) {
    assert.equal(diagnostic.location?.file, file);
    assert.ok((diagnostic.location?.line ?? 0) >= 1);
    assert.ok((diagnostic.location?.column ?? 0) >= 1);
    assert.equal(typeof diagnostic.path, 'string');
  }
});

test('a key that is not a plain name is invalid', () => {
  const result = parseWith('? [a, b]\n: value\n');
  assert.deepEqual(codesOf(result), ['STRATOS_MANIFEST_FIELD_INVALID']);
  assertAt(result.diagnostics[0]!, 5, 3);
});

test('anchors and aliases are followed', () => {
  const result = parseManifest(
    'name: &n pr-review\nshortDescription: &s Short text.\nlongDescription: *s\nversion: "1.0.0"\n' +
      'agents:\n  base: &base {harness: claude-code}\n  copy: *base\n',
    file,
  );
  assertValid(result);
  assert.equal(result.manifest?.longDescription, 'Short text.');
  assert.deepEqual(result.manifest?.agents, {base: {harness: 'claude-code'}, copy: {harness: 'claude-code'}});
});

test('CRLF line endings parse the same and keep locations', () => {
  const result = parseManifest(baseManifest.replaceAll('\n', '\r\n') + 'bogus: 1\r\n', file);
  assertAt(onlyDiagnostic(result, 'STRATOS_MANIFEST_FIELD_UNKNOWN'), 5, 1);
  assert.equal(result.manifest, undefined);
});

test('thousands of aliases stop at the alias limit, located at the first one over it', () => {
  // The reported shape: 5,000 anchors and 4,900 aliases took the library's lookups 33 s. The limit answers first.
  const lines = ['agents:'];
  for (let i = 0; i < 5000; i++) lines.push(`  a${i}: &x${i} {model: m${i}}`);
  lines.push('decisions:');
  for (let i = 0; i < 4900; i++) lines.push(`  d${i}: *x${i}`);
  const result = parseWith(`${lines.join('\n')}\n`);
  const diagnostic = onlyDiagnostic(result, 'STRATOS_MANIFEST_ALIAS_LIMIT');
  assert.match(diagnostic.message, /more than 1,000 YAML aliases; the one over the limit is '\*x1000'/);
  assertAt(diagnostic, 5 + 1 + 5000 + 1 + 1000, 10);
  assert.equal(result.manifest, undefined);
});

test('a thousand aliases within the limits are followed', () => {
  const lines = ['agents:', '  base: &base {harness: claude-code}'];
  for (let i = 0; i < 999; i++) lines.push(`  copy${i}: *base`);
  const result = parseWith(`${lines.join('\n')}\n`);
  assertValid(result);
  assert.deepEqual(result.manifest?.agents?.copy998, {harness: 'claude-code'});
});

test('an alias inside its own anchored value is invalid YAML for a manifest, not an endless value', () => {
  const result = parseWith('agents: &loop\n  a: {nested: *loop}\n');
  const diagnostic = onlyDiagnostic(result, 'STRATOS_MANIFEST_YAML_INVALID');
  assert.match(diagnostic.message, /alias '\*loop' inside the value anchored as '&loop'/);
  assertAt(diagnostic, 6, 15);
});

test('budget takes a positive usd amount and/or a positive whole number of tokens', () => {
  const both = parseWith('budget:\n  usd: 2.5\n  tokens: 400000\n');
  assertValid(both);
  assert.deepEqual(both.manifest?.budget, {usd: 2.5, tokens: 400000});
  assert.deepEqual(parseWith('budget:\n  usd: 1\n').manifest?.budget, {usd: 1});
  for (const [extra, pattern] of [
    ['budget:\n  usd: -1\n', /'budget.usd' must be a positive amount of US dollars/],
    ['budget:\n  tokens: 1.5\n', /'budget.tokens' must be a positive whole number of tokens/],
    ['budget:\n  dollars: 1\n', /dollars/],
    ['budget: {}\n', /must set tokens, usd or both/],
  ] as const) {
    const result = parseWith(extra);
    assertInvalid(result);
    assert.match(result.diagnostics.map((d) => d.message).join('\n'), pattern);
  }
});
