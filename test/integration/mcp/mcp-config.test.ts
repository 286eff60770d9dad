/**
 * In-process pieces of MCP preparation on real files: {env:}/{file:} references with secret-file permissions,
 * direct-usage detection from imports and actual references, and the McpToolError shape.
 */
import assert from 'node:assert/strict';
import {chmod, mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {after, describe, test} from 'node:test';
import {detectDirectMcpUsage} from '../../../src/builder/direct-usage.ts';
import {resolveReferences} from '../../../src/config/index.ts';
import {isStratosError, McpToolError, StratosError} from '../../../src/errors/index.ts';

const base = await mkdtemp(join(tmpdir(), 'stratos-mcp-config-'));
after(() => rm(base, {recursive: true, force: true}));

async function write(path: string, text: string, mode = 0o644): Promise<string> {
  const file = join(base, path);
  await mkdir(dirname(file), {recursive: true});
  await writeFile(file, text);
  await chmod(file, mode);
  return file;
}

function rejectsWith(code: string, pattern: RegExp, secret?: string) {
  return (error: unknown) => {
    assert.ok(isStratosError(error));
    assert.equal(error.code, code);
    assert.match(error.message, pattern);
    if (secret !== undefined) assert.equal(error.message.includes(secret), false);
    return true;
  };
}

describe('configuration references', () => {
  const options = {directory: join(base, 'wf'), field: "header 'Authorization' of MCP server 'github'"};

  test('env references resolve inside literal text; a missing variable names the reference', async () => {
    const env = {TOKEN: 's3cret', OTHER: 'x'};
    assert.equal(
      await resolveReferences('Bearer {env:TOKEN}/{env:OTHER}', {...options, env}),
      'Bearer s3cret/x',
    );
    assert.equal(await resolveReferences('plain value', {...options, env}), 'plain value');
    await assert.rejects(
      resolveReferences('Bearer {env:ABSENT_TOKEN}', {...options, env}),
      rejectsWith('STRATOS_CONFIG_ENV_MISSING', /\{env:ABSENT_TOKEN\}.*header 'Authorization'/s),
    );
    await assert.rejects(
      resolveReferences('{env:not-a-name}', {...options, env}),
      rejectsWith('STRATOS_CONFIG_REFERENCE_INVALID', /\{env:not-a-name\}/),
    );
  });

  test('file references: relative to the workflow, absolute, ~/; owner-only; trailing newline dropped', async () => {
    await write('wf/secrets/key', 'relative-secret\n', 0o600);
    const absolute = await write('elsewhere/key', 'absolute-secret', 0o400);
    assert.equal(await resolveReferences('{file:secrets/key}', options), 'relative-secret');
    assert.equal(await resolveReferences(`k={file:${absolute}}`, options), 'k=absolute-secret');
    const home = process.env.HOME;
    process.env.HOME = join(base, 'home');
    try {
      await write('home/.stratos/secrets/service-key', 'home-secret', 0o600);
      assert.equal(await resolveReferences('{file:~/.stratos/secrets/service-key}', options), 'home-secret');
    } finally {
      process.env.HOME = home;
    }
  });

  test('a secret file readable by group or others is an error that never shows the value', async () => {
    await write('wf/open-key', 'visible-secret', 0o644);
    await assert.rejects(
      resolveReferences('{file:open-key}', options),
      rejectsWith('STRATOS_CONFIG_FILE_PERMISSIONS', /\{file:open-key\}.*chmod 600/s, 'visible-secret'),
    );
    await write('wf/group-key', 'group-secret', 0o640);
    await assert.rejects(
      resolveReferences('{file:group-key}', options),
      rejectsWith('STRATOS_CONFIG_FILE_PERMISSIONS', /group or others/, 'group-secret'),
    );
    await assert.rejects(
      resolveReferences('{file:missing-key}', options),
      rejectsWith('STRATOS_CONFIG_FILE_MISSING', /\{file:missing-key\}/),
    );
  });
});

describe('direct MCP usage', () => {
  test('imports count only when referenced; local modules, type references and dynamic imports count', async () => {
    const directory = join(base, 'usage');
    const entrypoint = await write(
      'usage/workflow.ts',
      `import createGithub from './generated/mcp/github.js';
import createUnused from './generated/mcp/unused.js';
import {helper} from './lib/helper.js';
import type {Tool_xInput} from './generated/mcp/typed.js';
export async function go(input: Tool_xInput) {
  const github = await createGithub();
  return [github, helper, input];
}
`,
    );
    await write(
      'usage/lib/helper.ts',
      `export const helper = async () => (await import('../generated/mcp/dynamic.js')).default;
export {default as createReexported} from '../generated/mcp/reexported.js';
import createLocal from '../generated/mcp/local.js';
export const local = createLocal;
`,
    );
    await write('usage/generated/mcp/notscanned.ts', `import x from './agentonly.js'; x();`);
    const servers = ['github', 'unused', 'typed', 'dynamic', 'reexported', 'local', 'agentonly', 'absent'];
    assert.deepEqual(await detectDirectMcpUsage({directory, entrypoint, servers}), [
      'dynamic',
      'github',
      'local',
      'reexported',
      'typed',
    ]);
    assert.deepEqual(
      await detectDirectMcpUsage({directory, entrypoint: join(directory, 'missing.ts'), servers}),
      [],
    );
  });
});

describe('McpToolError', () => {
  test('keeps the tool result as its cause and is a StratosError', () => {
    const result = {content: [{type: 'text', text: 'went wrong'}], isError: true};
    const error = new McpToolError('github', 'get_me', result);
    assert.ok(error instanceof StratosError);
    assert.equal(error.code, 'STRATOS_MCP_TOOL_ERROR');
    assert.equal(error.cause, result);
    assert.equal(error.result, result);
    assert.match(error.message, /'get_me' of server 'github' reported an error: went wrong/);
  });
});
