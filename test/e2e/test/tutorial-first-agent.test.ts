// docs/tutorial-first-agent.md as a reader follows it: every file the page shows is written into a new project,
// the workflow builds, its saved case passes with no model and no key, and the page's deliberate mistake
// (a wrong word count) fails the case with exit 1.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createTempProject, type TempProject} from '../../helpers/temp-project.ts';

const page = readFileSync(
  fileURLToPath(new URL('../../../docs/tutorial-first-agent.md', import.meta.url)),
  'utf8',
);
let project: TempProject;
// No key and no harness endpoint: a case must not need either.
const offline = {ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9'};

/** The files the page shows: a `<!-- file: path -->` line, then one fenced block. */
function pageFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const match of page.matchAll(/<!-- file: (\S+) -->\n```\w*\n([\s\S]*?)```/g))
    files.set(match[1] as string, match[2] as string);
  return files;
}

before(async () => {
  project = await createTempProject('stratos-tutorial-');
  for (const [path, content] of pageFiles()) await project.write(path, content);
});

after(async () => {
  await project?.remove();
});

test('the page shows the manifest, the entrypoint, the input file and the case', () => {
  assert.deepEqual([...pageFiles().keys()].sort(), [
    '.stratos/workflows/summarize/tests/notes.yaml',
    '.stratos/workflows/summarize/workflow.ts',
    '.stratos/workflows/summarize/workflow.yaml',
    'notes.txt',
  ]);
});

test('the workflow builds and its case passes offline; a wrong expectation fails it', async () => {
  const built = await project.cli(['build', 'summarize', '--json'], {env: offline});
  assert.equal(built.exitCode, 0, built.stdout + built.stderr);
  const passed = await project.cli(['test', 'summarize', '--json'], {env: offline});
  assert.equal(passed.exitCode, 0, passed.stdout + passed.stderr);
  assert.deepEqual(
    passed.json.data.cases.map((c: {case: string; status: string}) => [c.case, c.status]),
    [['notes', 'passed']],
  );
  const casePath = '.stratos/workflows/summarize/tests/notes.yaml';
  await project.write(casePath, (pageFiles().get(casePath) ?? '').replace('words: 13', 'words: 12'));
  const failed = await project.cli(['test', 'summarize'], {env: offline});
  assert.equal(failed.exitCode, 1, failed.stdout + failed.stderr);
  assert.match(failed.stdout + failed.stderr, /words/);
});
