import assert from 'node:assert/strict';
import {test} from 'node:test';
import {assertAt, assertInvalid, assertValid, codesOf, onlyDiagnostic, parseWith} from './fixtures.ts';

/** Parses the base manifest with one server `s` given as YAML lines indented under it (line 8 is its first). */
const withServer = (...lines: string[]) =>
  parseWith(['mcp:', '  servers:', '    s:', ...lines.map((line) => `      ${line}`), ''].join('\n'));

test('the specification mcp.servers example is valid and header/env values are kept verbatim', () => {
  const result = parseWith(
    [
      'mcp:',
      '  servers:',
      '    github:',
      '      type: http',
      '      url: https://api.githubcopilot.com/mcp/',
      '      headers:',
      '        Authorization: "Bearer {env:GITHUB_TOKEN}"',
      '    company:',
      '      type: http',
      '      url: https://mcp.example.com/mcp',
      '      auth:',
      '        type: oauth',
      '    local:',
      '      type: stdio',
      '      command: node',
      '      args: ["tools/server.js"]',
      '      env:',
      '        API_KEY: "{file:~/.stratos/secrets/service-key}"',
    ].join('\n'),
  );
  assertValid(result);
  assert.deepEqual(result.manifest?.mcp, {
    servers: {
      github: {
        type: 'http',
        url: 'https://api.githubcopilot.com/mcp/',
        headers: {Authorization: 'Bearer {env:GITHUB_TOKEN}'},
      },
      company: {type: 'http', url: 'https://mcp.example.com/mcp', auth: {type: 'oauth'}},
      local: {
        type: 'stdio',
        command: 'node',
        args: ['tools/server.js'],
        env: {API_KEY: '{file:~/.stratos/secrets/service-key}'},
      },
    },
  });
});

test('an empty servers map is valid', () => {
  const result = parseWith('mcp:\n  servers: {}\n');
  assertValid(result);
  assert.deepEqual(result.manifest?.mcp, {servers: {}});
});

test('servers written as a list gets a message that it is a map keyed by server name', () => {
  const result = parseWith('mcp:\n  servers:\n    - name: github\n      type: http\n');
  const diagnostic = onlyDiagnostic(result, 'STRATOS_MANIFEST_FIELD_INVALID');
  assertAt(diagnostic, 6, 3, 'mcp.servers');
  assert.match(diagnostic.message, /is a list, but it must be a map keyed by server name/);
});

test('mcp must be a mapping with exactly servers', () => {
  assertAt(onlyDiagnostic(parseWith('mcp: [github]\n'), 'STRATOS_MANIFEST_FIELD_INVALID'), 5, 6, 'mcp');
  assertAt(onlyDiagnostic(parseWith('mcp:\n'), 'STRATOS_MANIFEST_FIELD_INVALID'), 5, 1, 'mcp');
  const missing = onlyDiagnostic(parseWith('mcp: {}\n'), 'STRATOS_MANIFEST_FIELD_MISSING');
  assert.equal(missing.path, 'mcp.servers');
  assertAt(missing, 5, 1);
  const unknown = onlyDiagnostic(
    parseWith('mcp:\n  servers: {}\n  timeout: 5\n'),
    'STRATOS_MANIFEST_FIELD_UNKNOWN',
  );
  assertAt(unknown, 7, 3, 'mcp.timeout');
  assert.match(
    unknown.message,
    /^workflow\.yaml field 'mcp' has an unknown field 'timeout'\. Allowed fields are servers;/,
  );
  assert.deepEqual(codesOf(parseWith('mcp:\n  servers: 3\n')), ['STRATOS_MANIFEST_FIELD_INVALID']);
});

test('server names must start with a letter and use letters, digits, _ and -', () => {
  for (const name of ['github', 'GitHub', 'my_server', 'my-server-2']) {
    assertValid(parseWith(`mcp:\n  servers:\n    ${name}: {type: stdio, command: node}\n`));
  }
  for (const name of ['2fa', '_x', 'my.server', '"my server"', '"é"']) {
    const result = parseWith(`mcp:\n  servers:\n    ${name}: {type: stdio, command: node}\n`);
    const diagnostic = onlyDiagnostic(result, 'STRATOS_MANIFEST_FIELD_INVALID');
    assertAt(diagnostic, 7, 5);
    assert.match(diagnostic.message, /^MCP server name .* is invalid: it must start with a letter/, name);
  }
});

test('a server that is not a mapping, or has no or an unknown type, is reported', () => {
  assertAt(
    onlyDiagnostic(parseWith('mcp:\n  servers:\n    s: http\n'), 'STRATOS_MANIFEST_FIELD_INVALID'),
    7,
    8,
  );
  const missing = onlyDiagnostic(withServer('url: https://x.example'), 'STRATOS_MANIFEST_FIELD_MISSING');
  assertAt(missing, 7, 5, 'mcp.servers.s.type');
  const unknownType = onlyDiagnostic(
    withServer('type: sse', 'url: https://x.example'),
    'STRATOS_MANIFEST_FIELD_INVALID',
  );
  assertAt(unknownType, 8, 13, 'mcp.servers.s.type');
  assert.match(unknownType.message, /must be 'http' or 'stdio'; got the string 'sse'/);
});

test('http servers need an http or https url', () => {
  assertValid(withServer('type: http', 'url: http://localhost:3000/mcp'));
  const missing = onlyDiagnostic(withServer('type: http'), 'STRATOS_MANIFEST_FIELD_MISSING');
  assertAt(missing, 7, 5, 'mcp.servers.s.url');
  for (const url of ['ftp://example.com', 'not a url', 'example.com/mcp', '/mcp']) {
    const diagnostic = onlyDiagnostic(
      withServer('type: http', `url: "${url}"`),
      'STRATOS_MANIFEST_FIELD_INVALID',
    );
    assertAt(diagnostic, 9, 12, 'mcp.servers.s.url');
    assert.match(diagnostic.message, /must be an absolute http or https URL/);
  }
  assert.deepEqual(codesOf(withServer('type: http', 'url: 42')), ['STRATOS_MANIFEST_FIELD_INVALID']);
});

test('unknown keys on servers are reported at the key, naming the allowed ones', () => {
  const http = onlyDiagnostic(
    withServer('type: http', 'url: https://x.example', 'command: node'),
    'STRATOS_MANIFEST_FIELD_UNKNOWN',
  );
  assertAt(http, 10, 7, 'mcp.servers.s.command');
  assert.match(http.message, /Allowed fields are type, url, headers, auth;/);
  const stdio = onlyDiagnostic(
    withServer('type: stdio', 'command: node', 'url: https://x.example'),
    'STRATOS_MANIFEST_FIELD_UNKNOWN',
  );
  assertAt(stdio, 10, 7, 'mcp.servers.s.url');
  assert.match(stdio.message, /Allowed fields are type, command, args, env;/);
  const typo = onlyDiagnostic(
    withServer('type: http', 'url: https://x.example', 'header: {}'),
    'STRATOS_MANIFEST_FIELD_UNKNOWN',
  );
  assert.match(typo.message, /Did you mean 'headers'\?/);
});

test('headers must map header names to strings', () => {
  const result = withServer(
    'type: http',
    'url: https://x.example',
    'headers:',
    '  X-Count: 3',
    '  "Bad Name": x',
    '  X-Ok: "{env:TOKEN}"',
  );
  assertInvalid(result);
  assert.deepEqual(codesOf(result), ['STRATOS_MANIFEST_FIELD_INVALID', 'STRATOS_MANIFEST_FIELD_INVALID']);
  assertAt(result.diagnostics[0]!, 11, 18, 'mcp.servers.s.headers.X-Count');
  assert.match(
    result.diagnostics[0]?.message ?? '',
    /must be a string; got the number 3\. Quote it to make it a string: "3"\./,
  );
  assertAt(result.diagnostics[1]!, 12, 9, 'mcp.servers.s.headers["Bad Name"]');
  assert.deepEqual(codesOf(withServer('type: http', 'url: https://x.example', 'headers: [a]')), [
    'STRATOS_MANIFEST_FIELD_INVALID',
  ]);
});

test('oauth settings are validated field by field', () => {
  const valid = withServer(
    'type: http',
    'url: https://x.example',
    'auth: {type: oauth, clientId: id, scope: "a b", callbackPort: 1, redirectUri: "http://127.0.0.1:1/cb"}',
  );
  assertValid(valid);
  const server = valid.manifest?.mcp?.servers.s;
  assert.deepEqual(server?.type === 'http' ? server.auth : undefined, {
    type: 'oauth',
    clientId: 'id',
    scope: 'a b',
    callbackPort: 1,
    redirectUri: 'http://127.0.0.1:1/cb',
  });
  assertValid(withServer('type: http', 'url: https://x.example', 'auth: {type: oauth, callbackPort: 65535}'));
  for (const port of ['0', '65536', '-1', '80.5', '"8080"', 'abc']) {
    const result = withServer(
      'type: http',
      'url: https://x.example',
      'auth:',
      '  type: oauth',
      `  callbackPort: ${port}`,
    );
    const diagnostic = onlyDiagnostic(result, 'STRATOS_MANIFEST_FIELD_INVALID');
    assertAt(diagnostic, 12, 23, 'mcp.servers.s.auth.callbackPort');
    assert.match(diagnostic.message, /integer from 1 to 65535/, port);
  }
});

test('oauth type, URLs and unknown keys are checked', () => {
  const result = withServer(
    'type: http',
    'url: https://x.example',
    'auth:',
    '  type: bearer',
    '  redirectUri: "not a url"',
    '  clientMetadataUrl: http://example.com/client.json',
    '  clientSecret: ""',
    '  token: abc',
  );
  assert.deepEqual(
    result.diagnostics.map((d) => [d.code, d.path]),
    [
      ['STRATOS_MANIFEST_FIELD_INVALID', 'mcp.servers.s.auth.type'],
      ['STRATOS_MANIFEST_FIELD_INVALID', 'mcp.servers.s.auth.redirectUri'],
      ['STRATOS_MANIFEST_FIELD_INVALID', 'mcp.servers.s.auth.clientMetadataUrl'],
      ['STRATOS_MANIFEST_FIELD_INVALID', 'mcp.servers.s.auth.clientSecret'],
      ['STRATOS_MANIFEST_FIELD_UNKNOWN', 'mcp.servers.s.auth.token'],
    ],
  );
  assert.match(result.diagnostics[2]?.message ?? '', /must be an absolute https URL/);
  const missingType = onlyDiagnostic(
    withServer('type: http', 'url: https://x.example', 'auth: {clientId: x}'),
    'STRATOS_MANIFEST_FIELD_MISSING',
  );
  assert.equal(missingType.path, 'mcp.servers.s.auth.type');
  assertAt(missingType, 10, 7);
});

test('stdio servers need a non-empty command; args are strings and env maps names to strings', () => {
  const valid = withServer(
    'type: stdio',
    'command: npx',
    'args: [-y, "@scope/server", "--port=3"]',
    'env: {A: "1", B: "{env:B}"}',
  );
  assertValid(valid);
  assert.deepEqual(valid.manifest?.mcp?.servers.s, {
    type: 'stdio',
    command: 'npx',
    args: ['-y', '@scope/server', '--port=3'],
    env: {A: '1', B: '{env:B}'},
  });
  assertAt(
    onlyDiagnostic(withServer('type: stdio'), 'STRATOS_MANIFEST_FIELD_MISSING'),
    7,
    5,
    'mcp.servers.s.command',
  );
  assertAt(
    onlyDiagnostic(withServer('type: stdio', 'command: "  "'), 'STRATOS_MANIFEST_FIELD_INVALID'),
    9,
    16,
    'mcp.servers.s.command',
  );
  const args = withServer('type: stdio', 'command: node', 'args: [a, 2, true]');
  assert.deepEqual(
    args.diagnostics.map((d) => d.path),
    ['mcp.servers.s.args[1]', 'mcp.servers.s.args[2]'],
  );
  assertAt(args.diagnostics[0]!, 10, 17);
  assert.deepEqual(codesOf(withServer('type: stdio', 'command: node', 'args: "a b"')), [
    'STRATOS_MANIFEST_FIELD_INVALID',
  ]);
  const env = withServer('type: stdio', 'command: node', 'env:', '  PORT: 8080', '  "A=B": x');
  assert.deepEqual(
    env.diagnostics.map((d) => d.path),
    ['mcp.servers.s.env.PORT', 'mcp.servers.s.env["A=B"]'],
  );
});

test('several servers with problems are all reported', () => {
  const result = parseWith(
    'mcp:\n  servers:\n    a: {type: http}\n    b: {type: stdio}\n    c: {type: http, url: "x"}\n    d: {type: ws}\n',
  );
  assert.deepEqual(
    result.diagnostics.map((d) => d.path),
    ['mcp.servers.a.url', 'mcp.servers.b.command', 'mcp.servers.c.url', 'mcp.servers.d.type'],
  );
});

test('the client-credentials grant needs clientId and one credential, each only as a reference', () => {
  const valid = withServer(
    'type: http',
    'url: https://x.example',
    'auth:',
    '  type: oauth',
    '  grant: client_credentials',
    '  clientId: ci',
    '  privateKey: "{file:~/.stratos/secrets/ci.pem}"',
    '  signingAlgorithm: ES256',
    '  scope: mcp:read',
  );
  assertValid(valid);
  const server = valid.manifest?.mcp?.servers.s;
  assert.deepEqual(server?.type === 'http' ? server.auth : undefined, {
    type: 'oauth',
    grant: 'client_credentials',
    clientId: 'ci',
    privateKey: '{file:~/.stratos/secrets/ci.pem}',
    signingAlgorithm: 'ES256',
    scope: 'mcp:read',
  });
  assertValid(
    withServer(
      'type: http',
      'url: https://x.example',
      'auth: {type: oauth, grant: client_credentials, clientId: ci, clientSecret: "{env:CI_SECRET}"}',
    ),
  );
  const cases: [string, string, string][] = [
    [
      'grant: password, clientId: ci, clientSecret: "{env:S}"',
      'STRATOS_MANIFEST_FIELD_INVALID',
      'auth.grant',
    ],
    ['grant: client_credentials, clientSecret: "{env:S}"', 'STRATOS_MANIFEST_FIELD_MISSING', 'auth.clientId'],
    ['grant: client_credentials, clientId: ci', 'STRATOS_MANIFEST_FIELD_MISSING', 'auth'],
    [
      'grant: client_credentials, clientId: ci, clientSecret: "{env:S}", privateKey: "{env:K}"',
      'STRATOS_MANIFEST_FIELD_INVALID',
      'auth.privateKey',
    ],
    [
      'grant: client_credentials, clientId: ci, clientSecret: hunter2-inline',
      'STRATOS_MANIFEST_FIELD_INVALID',
      'auth.clientSecret',
    ],
    [
      'grant: client_credentials, clientId: ci, clientSecret: "Basic {env:S}"',
      'STRATOS_MANIFEST_FIELD_INVALID',
      'auth.clientSecret',
    ],
    [
      'grant: client_credentials, clientId: ci, clientSecret: "{env:S}", callbackPort: 8765',
      'STRATOS_MANIFEST_FIELD_INVALID',
      'auth.callbackPort',
    ],
    [
      'grant: client_credentials, clientId: ci, clientSecret: "{env:S}", signingAlgorithm: ES256',
      'STRATOS_MANIFEST_FIELD_INVALID',
      'auth.signingAlgorithm',
    ],
    [
      'grant: client_credentials, clientId: ci, privateKey: "{env:K}", signingAlgorithm: HS256',
      'STRATOS_MANIFEST_FIELD_INVALID',
      'auth.signingAlgorithm',
    ],
    ['clientId: ci, privateKey: "{env:K}"', 'STRATOS_MANIFEST_FIELD_INVALID', 'auth.privateKey'],
  ];
  for (const [fields, code, path] of cases) {
    const result = withServer('type: http', 'url: https://x.example', `auth: {type: oauth, ${fields}}`);
    const diagnostic = onlyDiagnostic(result, code);
    assert.equal(diagnostic.path, `mcp.servers.s.${path}`, fields);
    assert.doesNotMatch(diagnostic.message, /hunter2-inline/, 'a diagnostic never quotes a secret');
  }
});
