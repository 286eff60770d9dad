// Failed builds with real tsc: a failed rebuild removes the old record and artifact, so run, describe and schema stop
// instead of using them; a project-wide build reports every failure and still builds the rest.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

const broken = echoWorkflow.replace('text.toUpperCase()', 'text.toUpperCase(42)');
const brokenLine = broken.split('\n').findIndex((line) => line.includes('toUpperCase(42)')) + 1;

describe('a failed rebuild never falls back to the old artifact', () => {
  let project: TempProject;
  let directory: string;

  before(async () => {
    project = await createTempProject('stratos-build-rebuild-');
    directory = await project.writeWorkflow('flaky', {
      'workflow.yaml': manifest('flaky'),
      'workflow.ts': echoWorkflow,
    });
    const first = await project.cli(['run', 'flaky', '--input', '{"text":"ok"}', '--json']);
    assert.deepEqual(first.json.data.output, {echo: 'OK'});
    await writeFile(join(directory, 'workflow.ts'), broken);
  });

  after(() => project.remove());

  test('run reports the type error with its location and exits 1', async () => {
    const result = await project.cli(['run', 'flaky', '--input', '{"text":"ok"}', '--json']);
    assert.equal(result.exitCode, 1);
    assert.equal(result.json.error.code, 'STRATOS_BUILD_TYPE_ERROR');
    assert.equal(result.json.error.location.file, join(directory, 'workflow.ts'));
    assert.equal(result.json.error.location.line, brokenLine);
    assert.equal(result.json.data, undefined, 'no output from the old artifact');
  });

  test('the record and the old compiled output are gone', async () => {
    assert.ok(!existsSync(join(directory, 'dist', '.stratos-build.json')));
    assert.ok(!existsSync(join(directory, 'dist', 'flaky', 'workflow.js')));
    const listed = await project.cli(['list', '--json']);
    assert.equal(listed.json.data.workflows[0].build, 'absent');
  });

  test('describe and schema stop too, and so does a second run', async () => {
    for (const args of [
      ['describe', 'flaky'],
      ['schema', 'flaky'],
      ['run', 'flaky', '--input', '{"text":"ok"}'],
    ]) {
      const result = await project.cli([...args, '--json']);
      assert.equal(result.exitCode, 1, args.join(' '));
      assert.equal(result.json.error.code, 'STRATOS_BUILD_TYPE_ERROR');
    }
  });

  test('fixing the code makes it build and run again', async () => {
    await writeFile(join(directory, 'workflow.ts'), echoWorkflow.replace('toUpperCase', 'toLowerCase'));
    const result = await project.cli(['run', 'flaky', '--input', '{"text":"OK"}', '--json']);
    assert.equal(result.exitCode, 0, result.stdout);
    assert.deepEqual(result.json.data.output, {echo: 'ok'});
  });
});

describe('a project-wide build continues past a broken workflow', () => {
  let project: TempProject;

  before(async () => {
    project = await createTempProject('stratos-build-all-');
    await project.writeWorkflow('alpha', {'workflow.yaml': manifest('alpha'), 'workflow.ts': echoWorkflow});
    await project.writeWorkflow('broken', {'workflow.yaml': manifest('broken'), 'workflow.ts': broken});
    await project.writeWorkflow('missing-entry', {'workflow.yaml': manifest('missing-entry')});
    await project.writeWorkflow('zulu', {'workflow.yaml': manifest('zulu'), 'workflow.ts': echoWorkflow});
  });

  after(() => project.remove());

  test('--json: exit 1, every workflow reported, the good ones built', async () => {
    const result = await project.cli(['build', '--json']);
    assert.equal(result.exitCode, 1);
    assert.equal(result.json.ok, false);
    assert.equal(result.json.error.code, 'STRATOS_BUILD_FAILED');
    assert.match(result.json.error.message, /^2 of 4 workflows failed to build: broken, missing-entry\.$/);
    const workflows = result.json.error.details.workflows as {
      name: string;
      status: string;
      diagnostics: {code: string}[];
    }[];
    assert.deepEqual(
      workflows.map((w) => [w.name, w.status]),
      [
        ['alpha', 'built'],
        ['broken', 'failed'],
        ['missing-entry', 'failed'],
        ['zulu', 'built'],
      ],
    );
    assert.deepEqual(
      workflows[1]!.diagnostics.map((d) => d.code),
      ['STRATOS_BUILD_TYPE_ERROR'],
    );
    assert.deepEqual(
      workflows[2]!.diagnostics.map((d) => d.code),
      ['STRATOS_BUILD_ENTRYPOINT_MISSING'],
    );
    for (const name of ['alpha', 'zulu']) {
      assert.ok(existsSync(join(project.projectRoot, name, 'dist', '.stratos-build.json')), `${name} built`);
    }
  });

  test('readable: each result on its own line with the diagnostics, the summary error last', async () => {
    const result = await project.cli(['build']);
    assert.equal(result.exitCode, 1);
    assert.match(result.stderr, /^✓ reused alpha \(\d+ ms\)$/m);
    assert.match(result.stderr, /^✗ failed broken \(\d+ ms\)$/m);
    assert.match(
      result.stderr,
      new RegExp(`broken/workflow\\.ts:${brokenLine}:\\d+: error STRATOS_BUILD_TYPE_ERROR: TS2554`),
    );
    assert.match(result.stderr, /^✗ failed missing-entry/m);
    assert.match(result.stderr, /^✓ reused zulu/m);
    assert.match(
      result.stderr,
      /error STRATOS_BUILD_FAILED: 2 of 4 workflows failed to build: broken, missing-entry\.\n$/,
    );
  });

  test('a target builds only that workflow', async () => {
    const result = await project.cli(['build', 'zulu', '--json']);
    assert.equal(result.exitCode, 0);
    assert.deepEqual(
      result.json.data.workflows.map((w: {name: string}) => w.name),
      ['zulu'],
    );
  });
});
