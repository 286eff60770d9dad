// Readable (default) output through the real binary: list is a table of names, short descriptions and freshness;
// describe shows the manual and schemas; findings are reported once, with code and location, whatever the text says.
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

let project: TempProject;

before(async () => {
  project = await createTempProject('stratos-readable-');
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
  await project.writeWorkflow('broken-manifest', {
    'workflow.yaml': manifest('broken-manifest', 'colour: blue\n'),
    'workflow.ts': echoWorkflow,
  });
  // A manual that mentions warnings, and a short description over its authoring target (a warning).
  await project.writeWorkflow('cautious', {
    'workflow.yaml': [
      'name: cautious',
      `shortDescription: ${'Careful catalog text. '.repeat(11).trim()}`,
      'longDescription: |',
      '  Heed every warning this workflow prints.',
      '  It changes nothing on disk.',
      'version: "2.1.0"',
      '',
    ].join('\n'),
    'workflow.ts': echoWorkflow,
  });
});

after(() => project.remove());

test('list prints one aligned row per workflow: name, short description, [freshness]', async () => {
  await project.cli(['build', 'echo']);
  const result = await project.cli(['list']);
  assert.equal(result.exitCode, 0, result.stderr);
  const rows = result.stdout.split('\n').filter((line) => line.endsWith(']'));
  assert.deepEqual(
    rows.map((row) => row.replace(/ {2,}/g, ' | ')),
    [
      'broken-manifest | (invalid workflow.yaml) | [invalid]',
      `cautious | ${'Careful catalog text. '.repeat(11).trim()} | [absent]`,
      'echo | Test workflow echo. | [fresh]',
    ],
  );
  const nameWidth = 'broken-manifest'.length;
  for (const row of rows) assert.equal(row.slice(nameWidth, nameWidth + 2), '  ', `aligned: ${row}`);
});

test('list reports a manifest problem once, with its code and file:line:col', async () => {
  // Its own project: no other finding in the listing to hide a repeat.
  const alone = await createTempProject('stratos-readable-list-');
  try {
    await alone.writeWorkflow('broken-manifest', {
      'workflow.yaml': manifest('broken-manifest', 'colour: blue\n'),
      'workflow.ts': echoWorkflow,
    });
    const result = await alone.cli(['list']);
    assert.equal(result.exitCode, 0, 'listing is not failing');
    const all = result.stdout + result.stderr;
    const file = join(alone.projectRoot, 'broken-manifest', 'workflow.yaml');
    const finding = new RegExp(`${file}:5:1: error STRATOS_MANIFEST_FIELD_UNKNOWN: `, 'g');
    assert.equal(all.match(finding)?.length, 1, all);
  } finally {
    await alone.remove();
  }
});

test('describe prints the name, version, manual and both schemas', async () => {
  const result = await project.cli(['describe', 'echo']);
  assert.equal(result.exitCode, 0, result.stderr);
  const [heading, short, blank, manual] = result.stdout.split('\n');
  assert.deepEqual(
    [heading, short, blank, manual],
    ['echo 1.0.0', 'Test workflow echo.', '', 'Used by the Stratos tests.'],
  );
  assert.match(
    result.stdout,
    /Input schema:\n\{\n {2}"\$schema"[\s\S]*"Text to echo"[\s\S]*Output schema:\n\{/,
  );
});

test('a warning goes to stderr exactly once, even when the manual itself says "warning"', async () => {
  const result = await project.cli(['describe', 'cautious']);
  assert.equal(result.exitCode, 0, 'warnings only');
  assert.match(result.stdout, /Heed every warning this workflow prints\./);
  const file = join(project.projectRoot, 'cautious', 'workflow.yaml');
  assert.match(
    result.stderr,
    new RegExp(`^${file}:2:\\d+: warning STRATOS_MANIFEST_DESCRIPTION_OVER_TARGET: `, 'm'),
  );
  assert.equal(result.stderr.split('STRATOS_MANIFEST_DESCRIPTION_OVER_TARGET').length, 2);
  assert.doesNotMatch(result.stdout, /STRATOS_MANIFEST_DESCRIPTION_OVER_TARGET/);
});

test('build shows one line per workflow with its findings beneath, each once', async () => {
  const result = await project.cli(['build', 'cautious', '--force']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(
    result.stdout,
    /^✓ built cautious \(\d+ ms\)\n {2}.+warning STRATOS_MANIFEST_DESCRIPTION_OVER_TARGET: /,
  );
  const all = result.stdout + result.stderr;
  assert.equal(all.split('STRATOS_MANIFEST_DESCRIPTION_OVER_TARGET').length, 2, all);
});
