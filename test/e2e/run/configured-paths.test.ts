// Paths configured in workflow.yaml follow one rule: absolute, `~/` in the user's home directory, or relative to
// the workflow folder. A trace file exporter at `~/traces/run.jsonl` writes into HOME, not a folder named `~`.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

let project: TempProject;

before(async () => {
  project = await createTempProject('stratos-paths-');
  await project.writeWorkflow('home-traces', {
    'workflow.yaml': manifest(
      'home-traces',
      'telemetry:\n  exporters:\n    - type: file\n      path: ~/traces/run.jsonl\n',
    ),
    'workflow.ts': echoWorkflow,
  });
});

after(() => project.remove());

test('a trace file exporter path under ~/ writes to the home directory', async () => {
  const result = await project.cli(['run', 'home-traces', '--input', '{"text":"hi"}', '--json']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const file = join(project.env.HOME!, 'traces', 'run.jsonl');
  const spans = (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.ok(
    spans.some((span) => JSON.stringify(span).includes('workflow home-traces')),
    'the workflow span',
  );
  const workflowFolder = join(project.projectRoot, 'home-traces');
  assert.equal(existsSync(join(workflowFolder, '~')), false, 'no folder named ~ inside the workflow');
  assert.equal(existsSync(join(project.cwd, '~')), false, 'no folder named ~ in the invocation directory');
});
