/**
 * Concurrent builds and runs of one workflow, as separate `stratos` processes: forced rebuilds replace dist/ while
 * runs load it. The per-workflow build lock makes each of them see the old build or the new one, never a
 * half-written one: every process succeeds and every run returns the right output.
 */
import assert from 'node:assert/strict';
import {readdirSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';

const entry = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import {decorate} from './lib/decorate.js';
import {shout} from './lib/shout.js';

export default workflow({
  input: z.strictObject({text: z.string().describe('Text')}),
  output: z.object({out: z.string().describe('Decorated, shouted text')}),
  run: ({text}) => ({out: decorate(shout(text))}),
});
`;

let project: TempProject;
let directory: string;

before(async () => {
  project = await createTempProject('stratos-build-concurrent-');
  directory = await project.writeWorkflow('busy', {
    'workflow.yaml': manifest('busy'),
    'workflow.ts': entry,
    'lib/decorate.ts': `export const decorate = (text: string): string => '*' + text + '*';\n`,
    'lib/shout.ts': `export const shout = (text: string): string => text.toUpperCase();\n`,
  });
});
after(() => project.remove());

test('many concurrent forced builds and runs of one workflow all succeed', {timeout: 600_000}, async () => {
  const commands = Array.from({length: 16}, (_, index) =>
    index % 2 === 0
      ? ['build', 'busy', '--force', '--json']
      : ['run', 'busy', '--input', JSON.stringify({text: `t${index}`}), '--json'],
  );
  const results = await Promise.all(commands.map((args) => project.cli(args)));
  results.forEach((result, index) => {
    assert.equal(result.exitCode, 0, `${commands[index]!.join(' ')}: ${result.stdout}${result.stderr}`);
    if (commands[index]![0] === 'run') assert.deepEqual(result.json.data.output, {out: `*T${index}*`});
    else assert.equal(result.json.data.workflows[0].status, 'built');
  });
  // Every lock was released.
  assert.deepEqual(readdirSync(join(project.projectRoot, '.generated', '.locks')), []);
  const listed = await project.cli(['list', '--json']);
  assert.equal(listed.json.data.workflows[0].build, 'fresh');
  assert.ok(directory);
});
