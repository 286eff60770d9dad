// `stratos list` where there is no workflow yet: it says where it looked and how to get a first one.
import assert from 'node:assert/strict';
import {existsSync, readdirSync} from 'node:fs';
import {cp} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createTempProject, type TempProject} from '../../helpers/temp-project.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
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
  const example = /cp -R (\S+) \.stratos\/workflows\//.exec(result.stdout)?.[1];
  assert.equal(example, join(repo, 'examples', 'pr-review'));
  assert.ok(existsSync(join(example, 'workflow.yaml')), 'the example named is there');

  const json = await project.cli(['list', '--json']);
  assert.deepEqual(json.json.data.workflows, []);
  assert.deepEqual(json.json.data.roots, [
    {kind: 'project', directory: project.projectRoot},
    {kind: 'user', directory: project.userRoot},
  ]);
});

test('the printed commands copy the example into the project and run it there, writing nothing into the package', async () => {
  const listed = await project.cli(['list']);
  const commands = listed.stdout.split('\n').filter((line) => /^ {2}(mkdir|stratos run) /.test(line));
  assert.equal(commands.length, 2, listed.stdout);
  // The copy leaves out what a build of the package's own folder may have left there.
  const source = join(repo, 'examples', 'pr-review');
  await cp(source, join(project.projectRoot, 'pr-review'), {
    recursive: true,
    filter: (path) => !/[\\/](dist|generated|node_modules)$/.test(path),
  });
  const before = listFolder(source);
  const run = /stratos run pr-review --input '(.+)'$/.exec(commands[1] ?? '')?.[1];
  const result = await project.cli(['run', 'pr-review', '--input', run ?? '', '--json']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.deepEqual(listFolder(source), before, 'nothing was written into the example of the package');
});

function listFolder(folder: string): string[] {
  return readdirSync(folder, {recursive: true}).map(String).sort();
}
