// The --json contract of docs/contributing/design-decisions.md through the real binary: stdout holds exactly one envelope of the documented
// shape for every command, the workflow's own console output goes to stderr, and the exit code follows `ok`.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import type {CliResult} from '../../helpers/run-cli.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

const chattyWorkflow = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

console.log('chatty module loaded');

export default workflow({
  input: z.strictObject({text: z.string().describe('Text to repeat')}),
  output: z.object({echo: z.string().describe('The text')}),
  run({text}) {
    console.log('chatty says', text);
    console.info('chatty info');
    process.stdout.write('chatty raw write\\n');
    console.error('chatty error line');
    return {echo: text};
  },
});
`;

let project: TempProject;

before(async () => {
  project = await createTempProject('stratos-envelope-');
  await project.writeWorkflow('chatty', {'workflow.yaml': manifest('chatty'), 'workflow.ts': chattyWorkflow});
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
  await project.writeWorkflow('wordy', {
    'workflow.yaml': manifest('wordy').replace(
      'shortDescription: Test workflow wordy.',
      `shortDescription: ${'Wordy catalog text. '.repeat(12).trim()}`,
    ),
    'workflow.ts': echoWorkflow,
  });
});

after(() => project.remove());

/** stdout is exactly one JSON document (one line), and it is a success envelope with the documented keys. */
function assertSuccessEnvelope(result: CliResult): void {
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.ok(result.stdout.endsWith('}\n'), result.stdout);
  assert.equal(result.stdout.trimEnd().split('\n').length, 1, 'stdout is one line');
  assert.ok(result.json !== undefined, `stdout is one JSON document: ${result.stdout}`);
  assert.deepEqual(Object.keys(result.json), ['ok', 'message', 'data', 'warnings']);
  assert.equal(result.json.ok, true);
  assert.equal(typeof result.json.message, 'string');
  assert.ok(Array.isArray(result.json.warnings));
}

test('list --json: the message is a count, data holds names, short descriptions and freshness', async () => {
  const result = await project.cli(['list', '--json']);
  assertSuccessEnvelope(result);
  assert.equal(result.json.message, '3 workflows');
  assert.deepEqual(
    result.json.data.workflows.map((w: {name: string; build: string}) => [w.name, w.build]),
    [
      ['chatty', 'absent'],
      ['echo', 'absent'],
      ['wordy', 'absent'],
    ],
  );
  assert.equal(result.json.data.workflows[1].shortDescription, 'Test workflow echo.');
  assert.equal(result.stderr, '');
  // The shortest path that still works as a target: relative inside the invocation directory.
  assert.equal(result.json.data.workflows[1].directory, '.stratos/workflows/echo');
});

test('list --json returns shortDescription exactly as stored; readable output may tidy it', async () => {
  const padded = await createTempProject('stratos-envelope-padded-');
  try {
    await padded.writeWorkflow('padded', {
      'workflow.yaml': manifest('padded').replace(
        'shortDescription: Test workflow padded.',
        'shortDescription: "  Padded short description.  "',
      ),
      'workflow.ts': echoWorkflow,
    });
    const result = await padded.cli(['list', '--json']);
    assertSuccessEnvelope(result);
    assert.equal(result.json.data.workflows[0].shortDescription, '  Padded short description.  ');
    const readable = await padded.cli(['list']);
    assert.match(readable.stdout, /padded +Padded short description\./);
    // The listed directory works as a target as it is.
    const described = await padded.cli(['describe', result.json.data.workflows[0].directory, '--json']);
    assert.equal(described.exitCode, 0, described.stdout + described.stderr);
  } finally {
    await padded.remove();
  }
});

test('list --json in a project without workflows says 0 workflows', async () => {
  const empty = await createTempProject('stratos-envelope-empty-');
  try {
    const result = await empty.cli(['list', '--json']);
    assertSuccessEnvelope(result);
    assert.equal(result.json.message, '0 workflows');
    assert.deepEqual(result.json.data.workflows, []);
  } finally {
    await empty.remove();
  }
});

test('build --json reports each workflow; module-level console output goes to stderr', async () => {
  const result = await project.cli(['build', '--json']);
  assertSuccessEnvelope(result);
  assert.deepEqual(
    result.json.data.workflows.map((w: {name: string; status: string}) => [w.name, w.status]),
    [
      ['chatty', 'built'],
      ['echo', 'built'],
      ['wordy', 'built'],
    ],
  );
  assert.equal(result.json.message, '3 workflows up to date (3 built)');
  assert.match(result.stderr, /chatty module loaded/);
  assert.doesNotMatch(result.stdout, /chatty module loaded/);
});

test('run --json: the workflow console output is on stderr only, the output in data', async () => {
  const result = await project.cli(['run', 'chatty', '--input', '{"text":"hi"}', '--json']);
  assertSuccessEnvelope(result);
  assert.deepEqual(result.json.data.output, {echo: 'hi'});
  assert.equal(result.json.data.workflow, 'chatty');
  assert.match(result.json.data.executionId, /^[0-9a-f]{16}$/);
  for (const line of ['chatty says hi', 'chatty info', 'chatty raw write', 'chatty error line']) {
    assert.ok(result.stderr.includes(line), `stderr has '${line}': ${result.stderr}`);
    assert.ok(!result.stdout.includes(line), `stdout lacks '${line}'`);
  }
});

test('run without --json prints the output object readably and exits 0', async () => {
  const result = await project.cli(['run', 'echo', '--input', '{"text":"hi"}']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, `${JSON.stringify({echo: 'HI'}, null, 2)}\n`);
});

test('describe --json: manual and schemas in data, a brief message', async () => {
  const result = await project.cli(['describe', 'echo', '--json']);
  assertSuccessEnvelope(result);
  const {data} = result.json;
  assert.equal(result.json.message, "Described workflow 'echo'");
  assert.equal(data.name, 'echo');
  assert.equal(data.shortDescription, 'Test workflow echo.');
  assert.equal(data.longDescription, 'Used by the Stratos tests.');
  assert.equal(data.version, '1.0.0');
  assert.equal(data.input.properties.text.description, 'Text to echo');
  assert.equal(data.output.properties.echo.description, 'The text, upper-cased');
  assert.deepEqual(result.json.warnings, []);
});

test('schema --json: data holds the name and the two schemas only', async () => {
  const result = await project.cli(['schema', 'echo', '--json']);
  assertSuccessEnvelope(result);
  assert.deepEqual(Object.keys(result.json.data).sort(), ['input', 'name', 'output']);
  assert.deepEqual(result.json.data.input.required, ['text']);
  assert.equal(result.json.data.input.additionalProperties, false);
  const readable = await project.cli(['schema', 'echo']);
  assert.equal(readable.exitCode, 0);
  assert.deepEqual(JSON.parse(readable.stdout), {
    input: result.json.data.input,
    output: result.json.data.output,
  });
});

test('warnings only: exit 0, ok true, the warning in the envelope', async () => {
  const result = await project.cli(['describe', 'wordy', '--json']);
  assertSuccessEnvelope(result);
  assert.deepEqual(
    result.json.warnings.map((w: {code: string}) => w.code),
    ['STRATOS_MANIFEST_DESCRIPTION_OVER_TARGET'],
  );
  assert.equal(result.json.warnings[0].severity, 'warning');
  assert.equal(result.json.warnings[0].location.line, 2);
});

test('usage errors are envelopes too: unknown command and unknown flag', async () => {
  for (const args of [
    ['deploy', '--json'],
    ['run', 'echo', '--bogus', '--json'],
    ['run', '--json'],
  ]) {
    const result = await project.cli(args);
    assert.equal(result.exitCode, 1, args.join(' '));
    assert.deepEqual(Object.keys(result.json), ['ok', 'error', 'warnings']);
    assert.equal(result.json.error.code, 'STRATOS_CLI_USAGE');
    assert.equal(result.stderr, '');
  }
});

test('--version --json and clean --json are envelopes', async () => {
  const version = await project.cli(['--version', '--json']);
  assertSuccessEnvelope(version);
  assert.match(version.json.data.version, /^\d+\.\d+\.\d+/);
  const clean = await project.cli(['clean', 'echo', '--json']);
  assertSuccessEnvelope(clean);
  assert.equal(clean.json.message, 'Removed 1 generated path');
  assert.equal(clean.json.data.workflows[0].name, 'echo');
});
