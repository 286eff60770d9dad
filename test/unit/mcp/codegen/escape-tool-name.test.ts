import assert from 'node:assert/strict';
import {test} from 'node:test';
import {isStratosError} from '../../../../src/errors/index.ts';
import {
  escapeToolName,
  serverTypeNames,
  toolTypeNames,
  wrapperFileName,
} from '../../../../src/mcp/codegen/index.ts';

test('tool input type names follow the escaping table', () => {
  const table: [string, string][] = [
    ['get_me', 'Tool_get_meInput'],
    ['get-me', 'Tool_get$2D$meInput'],
    ['agentstack.execute', 'Tool_agentstack$2E$executeInput'],
    ['price$', 'Tool_price$24$Input'],
    ['café', 'Tool_caf$E9$Input'],
    ['🚀launch', 'Tool_$1F680$launchInput'],
  ];
  for (const [name, input] of table) assert.equal(toolTypeNames(name).input, input, name);
});

test('escaping keeps ASCII letters, digits and underscores and nothing else', () => {
  assert.equal(escapeToolName('Get_Me_2'), 'Get_Me_2');
  assert.equal(escapeToolName('a b'), 'a$20$b');
  assert.equal(escapeToolName('x\u0000y'), 'x$0$y');
  assert.equal(escapeToolName('日本'), '$65E5$$672C$');
  assert.equal(escapeToolName(''), '');
});

test('a literal $ cannot impersonate an escape sequence', () => {
  assert.notEqual(escapeToolName('get$2D$me'), escapeToolName('get-me'));
  assert.equal(escapeToolName('get$2D$me'), 'get$24$2D$24$me');
});

test('escaping is by code point, not UTF-16 unit', () => {
  assert.equal(escapeToolName('🚀'), '$1F680$');
  assert.equal(escapeToolName('\uD83D'), '$D83D$');
});

test('output and schema names share the escaped base', () => {
  assert.deepEqual(toolTypeNames('agentstack.execute'), {
    input: 'Tool_agentstack$2E$executeInput',
    output: 'Tool_agentstack$2E$executeOutput',
    schema: 'Tool_agentstack$2E$executeSchema',
  });
});

test('server keys become PascalCase interface and factory names', () => {
  assert.deepEqual(serverTypeNames('github'), {
    pascalName: 'Github',
    interfaceName: 'GithubServer',
    factoryName: 'createGithub',
  });
  assert.equal(serverTypeNames('my-api').interfaceName, 'MyApiServer');
  assert.equal(serverTypeNames('my_api.v2').interfaceName, 'MyApiV2Server');
  assert.equal(serverTypeNames('GitHub').interfaceName, 'GitHubServer');
  assert.equal(serverTypeNames('1password').factoryName, 'createMcp1password');
  assert.equal(serverTypeNames('---').interfaceName, 'McpServer');
});

test('the wrapper file is named after the readable server key', () => {
  assert.equal(wrapperFileName('github'), 'github.ts');
  assert.equal(wrapperFileName('my-api'), 'my-api.ts');
});

test('server keys that cannot name one file are rejected', () => {
  for (const name of ['', '.', '..', 'a/b', 'a\\b', 'a\nb']) {
    assert.throws(
      () => wrapperFileName(name),
      (error: unknown) => isStratosError(error) && error.code === 'STRATOS_MCP_SERVER_NAME_INVALID',
      JSON.stringify(name),
    );
  }
});
