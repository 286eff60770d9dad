// The bundled examples run through the real CLI where they live (examples/ is their discovery root; what they
// generate is git-ignored by examples/.gitignore), each with its own STRATOS_HOME.
import assert from 'node:assert/strict';
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {runCli} from '../../helpers/run-cli.ts';

const repository = fileURLToPath(new URL('../../..', import.meta.url));
let home: string;
before(async () => {
  home = await mkdtemp(join(tmpdir(), 'stratos-examples-'));
});
after(() => rm(home, {recursive: true, force: true}));

const run = (args: string[]) => runCli(args, {cwd: repository, env: {STRATOS_HOME: home, CI: '1'}});

test('repo-outline lists a folder of the repository through the MCP filesystem server', async () => {
  const result = await run([
    'run',
    './examples/repo-outline',
    '--input',
    '{"folder":"src/mcp/client"}',
    '--json',
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  const output = result.json.data.output;
  assert.equal(output.folder, join(repository, 'src', 'mcp', 'client'));
  const index = output.files.find((file: {name: string}) => file.name === 'index.ts');
  assert.ok(index, 'index.ts is listed');
  assert.match(index.summary, /MCP/);
});

test('review-batch composes pr-review and reports the numbers it rejects', async () => {
  const input = {repo: 'org/repo', pr_numbers: [41, -1, 42]};
  const result = await run(['run', './examples/review-batch', '--input', JSON.stringify(input), '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.deepEqual(result.json.data.output.summaries, [
    'Review requested for org/repo#41',
    'Review requested for org/repo#42',
  ]);
  assert.equal(result.json.data.output.failed[0].pr_number, -1);
});
