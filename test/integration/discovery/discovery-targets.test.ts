// Discovery roots and targets through the real CLI: a name in both roots is ambiguous (both paths named, the folder
// path accepted as the target), duplicate names inside one root are an error, --name equals the positional target,
// and finding workflows never builds, installs or links anything.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {readdir} from 'node:fs/promises';
import {join, relative} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

const tagged = (tag: string) => echoWorkflow.replace('text.toUpperCase()', `'${tag}:' + text`);

let project: TempProject;
let projectTwin: string;
let userTwin: string;

before(async () => {
  project = await createTempProject('stratos-discovery-');
  projectTwin = await project.writeWorkflow('twin', {
    'workflow.yaml': manifest('twin'),
    'workflow.ts': tagged('project'),
  });
  userTwin = await project.writeWorkflow(
    'twin',
    {'workflow.yaml': manifest('twin'), 'workflow.ts': tagged('user')},
    'user',
  );
  await project.writeWorkflow('first', {'workflow.yaml': manifest('dup'), 'workflow.ts': echoWorkflow});
  await project.writeWorkflow('second', {'workflow.yaml': manifest('dup'), 'workflow.ts': echoWorkflow});
  await project.writeWorkflow('solo', {
    'workflow.yaml': manifest('solo'),
    'workflow.ts': echoWorkflow,
    // A dependency that cannot be installed: discovery must not even try.
    'package.json': JSON.stringify({type: 'module', dependencies: {'not-installed': 'file:../nowhere'}}),
  });
  await project.writeWorkflow(
    'personal',
    {'workflow.yaml': manifest('personal'), 'workflow.ts': echoWorkflow},
    'user',
  );
});

after(() => project.remove());

describe('discovery never builds', () => {
  test('list, list --json and help leave no dist, no node_modules and no root files', async () => {
    const before = {project: await readdir(project.projectRoot), user: await readdir(project.userRoot)};
    for (const args of [['list'], ['list', '--json'], ['run', 'solo', '--help']]) {
      const result = await project.cli(args);
      assert.equal(result.exitCode, 0, `${args.join(' ')}: ${result.stderr}`);
    }
    assert.deepEqual(
      await readdir(project.projectRoot),
      before.project,
      'no package.json, .gitignore or link',
    );
    assert.deepEqual(await readdir(project.userRoot), before.user);
    for (const folder of ['twin', 'first', 'second', 'solo']) {
      for (const owned of ['dist', 'node_modules']) {
        assert.ok(!existsSync(join(project.projectRoot, folder, owned)), `${folder}/${owned} absent`);
      }
    }
  });

  test('list shows both roots with names, short descriptions and freshness', async () => {
    const listed = await project.cli(['list', '--json']);
    const rows = listed.json.data.workflows.map(
      (w: {name: string; root: string; build: string; directory: string}) => [
        w.name,
        w.root,
        w.build,
        // list --json gives paths inside the invocation directory relative to it.
        w.directory.startsWith('/') ? relative(project.cwd, w.directory) : w.directory,
      ],
    );
    assert.deepEqual(rows, [
      ['dup', 'project', 'absent', '.stratos/workflows/first'],
      ['dup', 'project', 'absent', '.stratos/workflows/second'],
      ['solo', 'project', 'absent', '.stratos/workflows/solo'],
      ['twin', 'project', 'absent', '.stratos/workflows/twin'],
      ['personal', 'user', 'absent', '../home/workflows/personal'],
      ['twin', 'user', 'absent', '../home/workflows/twin'],
    ]);
    assert.equal(listed.json.message, '6 workflows');
  });
});

describe('a name in both roots', () => {
  test('is an ambiguity error naming both paths and asking for the folder path', async () => {
    for (const command of ['run', 'describe', 'schema', 'build', 'clean']) {
      const result = await project.cli([command, 'twin', '--json']);
      assert.equal(result.exitCode, 1, command);
      assert.equal(result.json.error.code, 'STRATOS_WORKFLOW_AMBIGUOUS');
      assert.ok(result.json.error.message.includes(projectTwin), command);
      assert.ok(result.json.error.message.includes(userTwin), command);
      assert.match(result.json.error.message, /Pass the folder path/);
      assert.deepEqual(result.json.error.details.paths, [projectTwin, userTwin]);
    }
  });

  test('the absolute folder path of either one is accepted as the target', async () => {
    const fromProject = await project.cli(['run', projectTwin, '--input', '{"text":"a"}', '--json']);
    assert.deepEqual(fromProject.json.data.output, {echo: 'project:a'});
    const fromUser = await project.cli(['run', userTwin, '--input', '{"text":"a"}', '--json']);
    assert.deepEqual(fromUser.json.data.output, {echo: 'user:a'});
  });

  test('a relative folder path and --name <path> are accepted too', async () => {
    const relativeTarget = await project.cli([
      'run',
      './.stratos/workflows/twin',
      '--input',
      '{"text":"b"}',
      '--json',
    ]);
    assert.deepEqual(relativeTarget.json.data.output, {echo: 'project:b'});
    const named = await project.cli(['schema', '--name', userTwin, '--json']);
    assert.equal(named.exitCode, 0, named.stdout);
    assert.equal(named.json.data.name, 'twin');
  });
});

describe('duplicate names inside one root', () => {
  test('list reports the duplicate as a problem with a location', async () => {
    const listed = await project.cli(['list', '--json']);
    const [problem] = listed.json.data.problems;
    assert.equal(problem.code, 'STRATOS_WORKFLOW_DUPLICATE_NAME');
    assert.match(problem.message, /first and .*second/);
    assert.equal(problem.location.file, join(project.projectRoot, 'second', 'workflow.yaml'));
  });

  test('the name is an error that lists both folders; each folder path still works', async () => {
    const result = await project.cli(['run', 'dup', '--input', '{"text":"x"}', '--json']);
    assert.equal(result.exitCode, 1);
    assert.equal(result.json.error.code, 'STRATOS_WORKFLOW_DUPLICATE_NAME');
    assert.deepEqual(result.json.error.details.paths, [
      join(project.projectRoot, 'first'),
      join(project.projectRoot, 'second'),
    ]);
    const byPath = await project.cli(['schema', join(project.projectRoot, 'first'), '--json']);
    assert.equal(byPath.exitCode, 0, byPath.stdout);
  });
});

describe('--name and the positional target', () => {
  test('mean the same for describe, schema and run', async () => {
    for (const args of [['describe'], ['schema'], ['run', '--input', '{"text":"same"}']]) {
      const positional = await project.cli([args[0]!, 'personal', ...args.slice(1), '--json']);
      const named = await project.cli([args[0]!, '--name', 'personal', ...args.slice(1), '--json']);
      assert.equal(positional.exitCode, 0, positional.stdout);
      assert.equal(named.exitCode, 0, named.stdout);
      // A run's facts (execution id, times, run folder) differ per execution; what it ran and returned does not.
      const stable = (data: Record<string, unknown>) =>
        args[0] === 'run' ? {workflow: data.workflow, output: data.output} : data;
      assert.deepEqual(stable(named.json.data), stable(positional.json.data), args[0]);
      assert.equal(named.json.message.split(' in ')[0], positional.json.message.split(' in ')[0]);
    }
  });

  test('two different targets are a usage error', async () => {
    const result = await project.cli(['schema', 'personal', '--name', 'solo', '--json']);
    assert.equal(result.exitCode, 1);
    assert.equal(result.json.error.code, 'STRATOS_CLI_USAGE');
  });

  test('a path that is not a workflow folder is not found', async () => {
    const result = await project.cli(['run', './nowhere/at/all', '--json']);
    assert.equal(result.json.error.code, 'STRATOS_WORKFLOW_NOT_FOUND');
    assert.match(result.json.error.message, /needs a workflow\.yaml/);
  });
});
