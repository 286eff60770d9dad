// Schema retrieval evaluates the declaring modules without invoking run: `stratos schema` and `stratos describe`
// build the workflow when needed and read its schemas, and the workflow's run (which would leave a marker file)
// never executes. A final `stratos run` proves the marker is what run leaves.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';

let project: TempProject;
let marker: string;

before(async () => {
  project = await createTempProject('stratos-schema-retrieval-');
  marker = join(project.cwd, 'run-was-called');
  await project.writeWorkflow('marks', {
    'workflow.yaml': manifest('marks'),
    'workflow.ts': `import {writeFileSync} from 'node:fs';
import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({text: z.string().describe('Any text')}),
  output: z.object({text: z.string().describe('The same text')}),
  run({text}) {
    writeFileSync(${JSON.stringify(marker)}, text);
    return {text};
  },
});
`,
  });
});

after(() => project.remove());

test('schema and describe, on a cold and on a cached build, never call run', async () => {
  for (const args of [
    ['schema', 'marks', '--json'],
    ['describe', 'marks', '--json'],
    ['schema', 'marks', '--json'],
    ['describe', 'marks'],
  ]) {
    const result = await project.cli(args);
    assert.equal(result.exitCode, 0, `${args.join(' ')}: ${result.stdout}${result.stderr}`);
    assert.equal(existsSync(marker), false, `${args.join(' ')} called run`);
  }
  const schema = await project.cli(['schema', 'marks', '--json']);
  assert.deepEqual(Object.keys(schema.json.data.input.properties), ['text']);

  const run = await project.cli(['run', 'marks', '--input', '{"text":"hi"}', '--json']);
  assert.equal(run.exitCode, 0, run.stdout + run.stderr);
  assert.equal(existsSync(marker), true, 'run leaves the marker');
});
