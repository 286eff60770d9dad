// `stratos list` where there is no workflow yet: it says where it looked and how to get a first one.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createTempProject, type TempProject} from '../helpers/temp-project.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
let project: TempProject;

before(async () => {
  project = await createTempProject('stratos-list-empty-');
});

after(() => project.remove());

test('no workflows: both discovery roots, stratos new and a runnable example are named', async () => {
  const result = await project.cli(['list']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, /^No workflows found\. Stratos looked in:$/m);
  assert.ok(result.stdout.includes(`  ${project.projectRoot} (project)\n`), result.stdout);
  assert.ok(result.stdout.includes(`  ${project.userRoot} (user)\n`), result.stdout);
  assert.match(result.stdout, /'stratos new <name>'/);
  const example = /stratos run (\S+) --input/.exec(result.stdout)?.[1];
  assert.equal(example, join(repo, 'examples', 'pr-review'));
  assert.ok(existsSync(join(example, 'workflow.yaml')), 'the example named is there');

  const json = await project.cli(['list', '--json']);
  assert.deepEqual(json.json.data.workflows, []);
  assert.deepEqual(json.json.data.roots, [
    {kind: 'project', directory: project.projectRoot},
    {kind: 'user', directory: project.userRoot},
  ]);
});
