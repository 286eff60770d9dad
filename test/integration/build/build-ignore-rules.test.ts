// Ignore rules in real builds: narrow rules for generated files are appended to the root .gitignore without losing
// the author's lines, only once; generated files already tracked by a real Git repository are reported as warnings.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

const authorRules = '# my own rules\n*.log\n!keep.log\nsecrets/';

let project: TempProject;
let gitignore: string;

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Stratos Test', '-c', 'user.email=test@example.invalid', ...args], {
    cwd: project.cwd,
    env: {...process.env, ...project.env, GIT_CONFIG_NOSYSTEM: '1'},
    encoding: 'utf8',
  });

before(async () => {
  project = await createTempProject('stratos-ignore-');
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
  gitignore = join(project.projectRoot, '.gitignore');
  // No trailing newline: the appended rules must still start on a line of their own.
  await writeFile(gitignore, authorRules);
});

after(() => project.remove());

test('the build appends the generated-file rules after the author lines, keeping every one of them', async () => {
  const result = await project.cli(['build', '--json']);
  assert.equal(result.exitCode, 0, result.stdout);
  const text = await readFile(gitignore, 'utf8');
  assert.ok(text.startsWith(`${authorRules}\n`), text);
  const added = text.slice(authorRules.length + 1).split('\n');
  for (const rule of [
    '/node_modules/',
    '/package.json',
    '/.generated/',
    '/*/dist/',
    '/*/generated/',
    '/*/node_modules/',
  ]) {
    assert.ok(added.includes(rule), `rule ${rule} added`);
  }
  assert.ok(!added.includes('*'), 'narrow rules, never a catch-all');
  assert.ok(text.endsWith('\n'));
});

test('a second build adds nothing; a rule the author removed is restored without touching the rest', async () => {
  const first = await readFile(gitignore, 'utf8');
  await project.cli(['build', '--force']);
  assert.equal(await readFile(gitignore, 'utf8'), first, 'no duplicate rules');
  await writeFile(gitignore, first.replace('/*/dist/\n', '').concat('extra-author-line\n'));
  await project.cli(['build', '--force']);
  const text = await readFile(gitignore, 'utf8');
  assert.equal(text.split('\n').filter((line) => line === '/*/dist/').length, 1);
  assert.ok(text.includes('extra-author-line\n'));
  assert.ok(text.startsWith(`${authorRules}\n`));
});

test('in a real Git repository the rules work: dist and the shared SDK are ignored, sources are not', () => {
  git('init', '--quiet');
  const status = git('status', '--porcelain', '--untracked-files=all', '--', '.stratos');
  assert.match(status, /\.stratos\/workflows\/echo\/workflow\.ts/);
  assert.match(status, /\.stratos\/workflows\/echo\/workflow\.yaml/);
  assert.match(status, /\.stratos\/workflows\/\.gitignore/);
  assert.doesNotMatch(status, /dist\/|node_modules|workflows\/package\.json/);
});

test('generated files that Git already tracks are reported as warnings', async () => {
  const compiled = '.stratos/workflows/echo/dist/echo/workflow.js';
  git('add', '--force', compiled, '.stratos/workflows/echo/workflow.ts');
  git('commit', '--quiet', '-m', 'track a build product by mistake');
  const result = await project.cli(['build', 'echo', '--force', '--json']);
  assert.equal(result.exitCode, 0, 'warnings only');
  const tracked = result.json.warnings.filter(
    (w: {code: string}) => w.code === 'STRATOS_BUILD_GENERATED_TRACKED',
  );
  assert.equal(tracked.length, 1, JSON.stringify(result.json.warnings));
  assert.equal(tracked[0].severity, 'warning');
  assert.equal(tracked[0].location.file, join(project.cwd, compiled));
  assert.match(tracked[0].message, /is tracked by Git.*git rm --cached/);
  const readable = await project.cli(['build', 'echo', '--force']);
  assert.match(readable.stdout, /warning STRATOS_BUILD_GENERATED_TRACKED/);
  assert.equal(git('ls-files', compiled).trim(), compiled, 'reported, never untracked by Stratos');
});
