// The opt-in live suite (`npm run test:live`, test/live/) with no credentials in the environment: every check of
// every target is reported as skipped with its reason, none passes or fails, and the run exits 0. `npm test` never
// runs the live files themselves.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {globSync} from 'node:fs';
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {listTestFiles} from '../../../scripts/test-files.ts';
import {cleanEnv} from '../../helpers/run-cli.ts';
import {liveChecks} from '../../live/live-checks.ts';

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const targets = ['claude-code (anthropic)', 'codex (azure)', 'opencode (azure)', 'opencode (ollama)'];

test('without credentials the live suite skips every check with a reason and exits 0', async () => {
  const home = await mkdtemp(join(tmpdir(), 'stratos-live-suite-'));
  try {
    // NODE_TEST_CONTEXT would make the nested runner skip its files as a recursive run.
    const {NODE_TEST_CONTEXT: _context, ...env} = cleanEnv();
    for (const name of Object.keys(env)) {
      if (/^(ANTHROPIC_|AZURE_|OLLAMA_|CLAUDE_CODE_)/.test(name)) delete env[name];
    }
    const result = spawnSync(process.execPath, ['scripts/test-live.ts'], {
      cwd: repository,
      env: {...env, HOME: home, CLAUDE_CONFIG_DIR: join(home, 'claude')},
      encoding: 'utf8',
    });
    const output = result.stdout + result.stderr;
    assert.equal(result.status, 0, output);
    for (const target of targets) {
      for (const check of liveChecks) {
        const line = output.split('\n').find((entry) => entry.includes(`${target}: ${check}`));
        assert.ok(line !== undefined, `${target}: ${check} is reported\n${output}`);
        assert.match(line, /^﹣ .* # \S.+/, `${target}: ${check} is skipped with a reason`);
      }
    }
    assert.match(output, /ℹ pass 0\n/);
    assert.match(output, /ℹ fail 0\n/);
    assert.match(output, new RegExp(`ℹ skipped ${targets.length * liveChecks.length}\\n`));
  } finally {
    await rm(home, {recursive: true, force: true});
  }
});

test("npm test's file list leaves test/live out", () => {
  const all = globSync('test/**/*.test.ts', {cwd: repository});
  assert.ok(
    all.some((file) => file.startsWith('test/live/')),
    'the live files exist',
  );
  const listed = listTestFiles(repository);
  assert.deepEqual(
    listed.filter((file) => file.startsWith('test/live/')),
    [],
  );
  assert.ok(listed.includes('test/e2e/package/live-suite.test.ts'));
});
