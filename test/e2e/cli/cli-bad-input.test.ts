// Every bad-input case of the foundation issue through the real binary: one readable message with a stable code on
// stderr (or exactly one failure envelope on stdout with --json), exit 1, the source location where there is one,
// and not one authored byte changed.
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {changedFiles, type FileSnapshot, snapshotAuthoredFiles} from '../../helpers/authored-files.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

const typeErrorWorkflow = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({}),
  output: z.object({}),
  run() {
    const count: number = 'three';
    return {};
  },
});
`;

const entry = (run: string, input = 'z.strictObject({})', output = 'z.object({})') =>
  `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: ${input},
  output: ${output},
  run() {
    ${run}
  },
});
`;

interface BadInputCase {
  title: string;
  args: string[];
  code: string;
  message: RegExp;
  /** Relative to the project root; with line and column where the problem has a source position. */
  location?: {file: string; line?: number; column?: number};
  /** A throw in workflow code: its own frame, relative to the workflow folder (mapped to the .ts source). */
  frame?: {file: string; line: number; column: number};
}

const cases: BadInputCase[] = [
  {
    title: 'malformed YAML',
    args: ['run', 'bad-yaml', '--input', '{}'],
    code: 'STRATOS_MANIFEST_YAML_INVALID',
    message: /workflow\.yaml is not valid YAML at line 3, column 1/,
    location: {file: 'bad-yaml/workflow.yaml', line: 3, column: 1},
  },
  {
    title: 'invalid JSON input',
    args: ['run', 'echo', '--input', '{text: hi}'],
    code: 'STRATOS_INPUT_JSON_INVALID',
    message: /--input is not valid JSON.*Pass one object/,
  },
  {
    title: 'an unknown input field',
    args: ['run', 'echo', '--input', '{"text":"hi","colour":"red"}'],
    code: 'STRATOS_INPUT_INVALID',
    message: /colour: Unknown field 'colour'[\s\S]*stratos schema echo/,
  },
  {
    title: 'a schema field without a description',
    args: ['run', 'no-description', '--input', '{"text":"hi"}'],
    code: 'STRATOS_CONTRACT_DESCRIPTION_MISSING',
    message: /text/,
    location: {file: 'no-description/workflow.ts', line: 5, column: 26},
  },
  {
    title: 'a TypeScript type error',
    args: ['run', 'type-error', '--input', '{}'],
    code: 'STRATOS_BUILD_TYPE_ERROR',
    message: /workflow\.ts:8:11: TS2322: Type 'string' is not assignable to type 'number'/,
    location: {file: 'type-error/workflow.ts', line: 8, column: 11},
  },
  {
    title: 'run throwing',
    args: ['run', 'throws', '--input', '{}'],
    code: 'STRATOS_RUN_FAILED',
    message: /Workflow 'throws' failed: the database is on fire/,
    frame: {file: 'workflow.ts', line: 8, column: 11},
  },
  {
    title: 'output not matching its schema',
    args: ['run', 'bad-output', '--input', '{}'],
    code: 'STRATOS_OUTPUT_INVALID',
    message: /Workflow 'bad-output' returned a value that does not match its output schema[\s\S]*count/,
  },
  {
    title: 'an unknown workflow name',
    args: ['describe', 'no-such-workflow'],
    code: 'STRATOS_WORKFLOW_NOT_FOUND',
    message: /Workflow 'no-such-workflow' was not found in .*Run 'stratos list'/,
  },
  {
    title: 'an ambiguous name',
    args: ['schema', 'twin'],
    code: 'STRATOS_WORKFLOW_AMBIGUOUS',
    message:
      /Workflow 'twin' exists in more than one discovery root: .+twin and .+twin\. Pass the folder path/,
  },
];

let project: TempProject;
let authored: FileSnapshot;

before(async () => {
  project = await createTempProject('stratos-bad-input-');
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
  await project.writeWorkflow('bad-yaml', {
    'workflow.yaml': 'name: bad-yaml\nshortDescription: [unclosed\nversion: "1.0.0"\n',
    'workflow.ts': echoWorkflow,
  });
  await project.writeWorkflow('no-description', {
    'workflow.yaml': manifest('no-description'),
    'workflow.ts': entry('return {};', 'z.strictObject({text: z.string()})'),
  });
  await project.writeWorkflow('type-error', {
    'workflow.yaml': manifest('type-error'),
    'workflow.ts': typeErrorWorkflow,
  });
  await project.writeWorkflow('throws', {
    'workflow.yaml': manifest('throws'),
    'workflow.ts': entry("throw new Error('the database is on fire');"),
  });
  await project.writeWorkflow('bad-output', {
    'workflow.yaml': manifest('bad-output'),
    'workflow.ts': entry(
      `return JSON.parse('{"count": "many"}');`,
      undefined,
      "z.object({count: z.number().describe('How many')})",
    ),
  });
  for (const root of ['project', 'user'] as const) {
    await project.writeWorkflow(
      'twin',
      {'workflow.yaml': manifest('twin'), 'workflow.ts': echoWorkflow},
      root,
    );
  }
  // One good build first, so the root's shared SDK and ignore rules exist before the snapshot is taken.
  const built = await project.cli(['build', 'echo']);
  assert.equal(built.exitCode, 0, built.stderr);
  authored = await snapshotAuthoredFiles(project.cwd, project.userRoot);
});

after(() => project.remove());

for (const badInput of cases) {
  describe(badInput.title, () => {
    test(`readable: one ${badInput.code} message on stderr, exit 1`, async () => {
      const result = await project.cli(badInput.args);
      assert.equal(result.exitCode, 1);
      assert.equal(result.stdout, '', 'nothing on stdout for a failure');
      const headline = `error ${badInput.code}: `;
      assert.ok(result.stderr.startsWith(headline), result.stderr);
      assert.equal(result.stderr.split(headline).length, 2, 'exactly one error message');
      assert.match(result.stderr, badInput.message);
      // A stack frame is indented four spaces; the error's own location line (`  at workflow.ts:8:11`) two.
      assert.doesNotMatch(result.stderr, /STRATOS_INTERNAL|^ {4}at .+:\d+:\d+\)?$/m, 'no stack trace');
      if (badInput.frame !== undefined) {
        const {file, line, column} = badInput.frame;
        assert.ok(result.stderr.includes(`\n  at ${file}:${line}:${column}\n`), result.stderr);
      }
      if (badInput.location?.line !== undefined) {
        const where = `${join(project.projectRoot, badInput.location.file)}:${badInput.location.line}:${badInput.location.column}`;
        assert.ok(result.stderr.includes(where), `stderr names ${where}:\n${result.stderr}`);
      }
      assert.deepEqual(
        changedFiles(authored, await snapshotAuthoredFiles(project.cwd, project.userRoot)),
        [],
      );
    });

    test(`--json: exactly one failure envelope with ${badInput.code}, exit 1`, async () => {
      const result = await project.cli([...badInput.args, '--json']);
      assert.equal(result.exitCode, 1);
      assert.equal(result.stderr, '', 'no logs or progress in --json mode');
      assert.equal(result.stdout.trimEnd().split('\n').length, 1, 'one JSON document on one line');
      assert.ok(result.json !== undefined, `stdout is JSON: ${result.stdout}`);
      assert.deepEqual(Object.keys(result.json), ['ok', 'error', 'warnings']);
      assert.equal(result.json.ok, false);
      assert.equal(result.json.error.code, badInput.code);
      assert.match(result.json.error.message, badInput.message);
      if (badInput.frame !== undefined) {
        assert.deepEqual(result.json.error.location, badInput.frame);
      } else if (badInput.location === undefined) {
        assert.equal(result.json.error.location, undefined);
      } else {
        assert.deepEqual(result.json.error.location, {
          ...badInput.location,
          file: join(project.projectRoot, badInput.location.file),
        });
      }
      assert.deepEqual(
        changedFiles(authored, await snapshotAuthoredFiles(project.cwd, project.userRoot)),
        [],
      );
    });
  });
}

test('a failed build leaves no artifact and no record behind', async () => {
  for (const name of ['bad-yaml', 'no-description', 'type-error']) {
    const listed = await project.cli(['list', '--json']);
    const entry = listed.json.data.workflows.find((w: {name: string}) => w.name === name);
    assert.ok(['absent', 'invalid'].includes(entry.build), `${name} is ${entry.build}`);
  }
});
