// Worktrees and resume with the real CLI and the real Claude Code binary against the scripted Anthropic server: a run
// whose agent wrote in its unnamed worktree is killed with SIGKILL during its second turn; `stratos runs resume`
// gives the agent the same checkout, with the earlier work in it, and continues its conversation there. A killed
// run whose checkout was deleted is refused with STRATOS_RESUME_WORKTREE_MISSING before any request, and no new
// checkout is made.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {readdir, readFile, realpath} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {isolateGit} from '../../helpers/git-repo.ts';
import {startCli, waitUntil} from '../../helpers/killable-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {
  type AnthropicServer,
  isMainTurn,
  resultOf,
  startAnthropicServer,
  toolCall,
} from '../../servers/models/anthropic.ts';
import {createHarnessHome, findMarkedProcesses, type HarnessHome} from '../../servers/models/harness-env.ts';

let server: AnthropicServer;
let project: TempProject;
let home: HarnessHome;
/** Turn 2 hangs until released, so the run can be killed while it is in flight. */
let released = false;
const prompts: string[] = [];

const source = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({}),
  output: z.object({answers: z.array(z.string()).describe('Each reply')}),
  async run() {
    const coder = createAgent('coder');
    return {answers: [await coder.execute('TURN 1'), await coder.execute('TURN 2')]};
  },
});
`;

before(async () => {
  await isolateGit();
  server = await startAnthropicServer((turn) => {
    if (!isMainTurn(turn)) return {text: 'side'};
    const bash = resultOf(turn, 'Bash');
    if (bash !== undefined) return {text: `DONE ${bash.content.trim()}`};
    prompts.push(turn.lastText);
    if (turn.lastText === 'TURN 1')
      return toolCall(turn, 'Bash', {command: 'pwd > one.txt && echo one', description: 'Write one'});
    if (!released) return {hang: true};
    return toolCall(turn, 'Bash', {command: 'pwd > two.txt && cat one.txt', description: 'Read one'});
  });
  home = await createHarnessHome({anthropicUrl: server.url});
  project = await createTempProject('stratos-worktree-resume-');
  await project.writeWorkflow('coding', {
    'workflow.yaml': manifest(
      'coding',
      'agents:\n  coder:\n    harness: claude-code\n    allowedMcps: []\n    worktree: true\n',
    ),
    'workflow.ts': source,
  });
  await project.write('README.md', '# a project\n');
  const git = (args: string[]) => execFileSync('git', args, {cwd: project.cwd, encoding: 'utf8'});
  git(['init', '-q', '-b', 'main']);
  git(['add', 'README.md']);
  git(['commit', '-q', '-m', 'first']);
  const build = await project.cli(['build', 'coding', '--json'], {env: home.env});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

after(async () => {
  // The killed runs' harness processes are ours: end them by their ids.
  for (const {pid} of await findMarkedProcesses(home.marker)) process.kill(pid, 'SIGKILL');
  await server?.close();
  await project?.remove();
  await home?.remove();
});

const worktrees = async () =>
  (await readdir(join(await realpath(project.cwd), '.stratos', 'worktrees'))).filter(
    (n) => n !== '.gitignore',
  );

/** Starts a run, waits until its second turn is in flight, kills it with SIGKILL and returns its run id. */
async function killDuringTurnTwo(): Promise<string> {
  released = false;
  const seen = prompts.length;
  const started = startCli(['run', 'coding', '--json'], {
    cwd: project.cwd,
    env: {...project.env, ...home.env},
  });
  await waitUntil(() => prompts.slice(seen).includes('TURN 2'), started.done);
  started.child.kill('SIGKILL');
  await started.done;
  for (const {pid} of await findMarkedProcesses(home.marker)) process.kill(pid, 'SIGKILL');
  const listed = await project.cli(['runs', 'list', '--json'], {env: home.env});
  return listed.json.data.runs[0].runId;
}

test('a killed run resumes in the same worktree checkout, with its earlier work there', async () => {
  const runId = await killDuringTurnTwo();
  const [name] = await worktrees();
  assert.ok(name, 'the killed run left its checkout');
  const checkout = join(await realpath(project.cwd), '.stratos', 'worktrees', name);
  assert.equal((await readFile(join(checkout, 'one.txt'), 'utf8')).trim(), checkout);

  released = true;
  const seen = prompts.length;
  const resumed = await project.cli(['runs', 'resume', runId, '--json'], {env: home.env});
  assert.equal(resumed.exitCode, 0, resumed.stdout + resumed.stderr);
  // Turn 1 was replayed; turn 2 ran again in the same checkout and read what turn 1 wrote there.
  assert.deepEqual(prompts.slice(seen), ['TURN 2']);
  assert.deepEqual(resumed.json.data.output.answers, ['DONE one', `DONE ${checkout}`]);
  assert.equal((await readFile(join(checkout, 'two.txt'), 'utf8')).trim(), checkout);
  assert.deepEqual(await worktrees(), [name]);
  const log = await readFile(join(resumed.json.data.runDirectory, 'run.log'), 'utf8');
  assert.match(
    log,
    new RegExp(`event stratos\\.worktree\\.resumed: Agent 'coder' continues in worktree '${name}'`),
  );
  // The successful resume released the hold: the usual rules keep the checkout for its uncommitted files.
  const kept = resumed.json.warnings.find((w: {code: string}) => w.code === 'STRATOS_WORKTREE_KEPT_CHANGES');
  assert.match(kept?.message ?? '', /untracked changes \(one\.txt, two\.txt\)/);
  execFileSync('git', ['worktree', 'remove', '--force', checkout], {cwd: project.cwd});
});

test('a killed run whose checkout was deleted is refused with STRATOS_RESUME_WORKTREE_MISSING', async () => {
  const runId = await killDuringTurnTwo();
  const [name] = await worktrees();
  const checkout = join(await realpath(project.cwd), '.stratos', 'worktrees', name!);
  execFileSync('git', ['worktree', 'remove', '--force', checkout], {cwd: project.cwd});

  released = true;
  const seen = prompts.length;
  const resumed = await project.cli(['runs', 'resume', runId, '--json'], {env: home.env});
  assert.equal(resumed.exitCode, 1, resumed.stdout + resumed.stderr);
  assert.equal(resumed.json.error.code, 'STRATOS_RESUME_WORKTREE_MISSING');
  assert.match(resumed.json.error.message, new RegExp(`worktree '${name}' of run ${runId}: .* is gone`));
  // Nothing was sent and no new checkout was made.
  assert.deepEqual(prompts.slice(seen), []);
  assert.deepEqual(await worktrees(), []);
});
