// A queued run whose agent holds a native conversation (Codex against the scripted Responses server), its worker
// killed with SIGKILL while the third of four turns is in flight (docs/scale-out.md, "Moving a run to another
// machine"). Recovered by the worker restarted under the same id, the server sees exactly the remaining turns and
// the first of them carries the earlier ones. Recovered by a worker with another Stratos home (another machine),
// the run fails with STRATOS_QUEUE_SESSION_ELSEWHERE before any new request, naming the conversation and, for a
// `worktree:` agent, its worktree.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {isolateGit} from '../../helpers/git-repo.ts';
import {waitUntil} from '../../helpers/killable-cli.ts';
import {startWorkerProcess, type WorkerProcess} from '../../helpers/queue-worker.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {createHarnessHome, findMarkedProcesses, type HarnessHome} from '../../servers/models/harness-env.ts';
import {type ResponsesServer, startResponsesServer} from '../../servers/models/openai-responses.ts';
import {type PostgresServer, startPostgres} from '../../servers/postgres/start-postgres.ts';

const source = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({turns: z.number().describe('How many turns'), tag: z.string().describe('Run tag')}),
  output: z.object({answers: z.array(z.string()).describe('Each reply')}),
  async run({turns, tag}) {
    const agent = createAgent('main');
    const answers: string[] = [];
    for (let i = 1; i <= turns; i++) answers.push(await agent.execute(tag + ' TURN ' + i));
    return {answers};
  },
});
`;

let postgres: PostgresServer;
let server: ResponsesServer;
let home: HarnessHome;
let project: TempProject;
let env: NodeJS.ProcessEnv;
/** Turn 3 of each run hangs until its tag is released. */
const released = new Set<string>();
const workers: WorkerProcess[] = [];

before(async () => {
  await isolateGit();
  postgres = await startPostgres();
  server = await startResponsesServer((turn) => {
    const [, tag, n] = /(\S+) TURN (\d+)/.exec(turn.userText) ?? [];
    if (tag === undefined) return {text: 'no turn'};
    return n === '3' && !released.has(tag) ? {hang: true} : {text: `ANSWER ${n}`};
  });
  home = await createHarnessHome({openaiUrl: server.url});
  project = await createTempProject('stratos-queued-talk-');
  env = {...project.env, ...home.env, TEST_ENGINE_DB: postgres.url};
  await writeSettings(project.home);
  await project.writeWorkflow('talk', {
    'workflow.yaml': manifest(
      'talk',
      'agents:\n  main:\n    harness: codex\n    model: gpt-test\n    allowedMcps: []\n',
    ),
    'workflow.ts': source,
  });
  await project.writeWorkflow('tree', {
    'workflow.yaml': manifest(
      'tree',
      'agents:\n  main:\n    harness: codex\n    model: gpt-test\n    allowedMcps: []\n    worktree: true\n',
    ),
    'workflow.ts': source,
  });
  const git = (args: string[]) => execFileSync('git', args, {cwd: project.cwd, env: process.env});
  git(['init', '-q', '-b', 'main']);
  git(['add', '.']);
  git(['commit', '-q', '-m', 'workflows']);
  const build = await project.cli(['build', '--json'], {env});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

after(async () => {
  for (const worker of workers) await worker.stop('SIGKILL');
  // The killed workers' codex processes are ours: end them by their ids.
  if (home !== undefined)
    for (const {pid} of await findMarkedProcesses(home.marker)) process.kill(pid, 'SIGKILL');
  await server?.close();
  await postgres?.stop();
  await project?.remove();
  await home?.remove();
});

async function writeSettings(stratosHome: string): Promise<void> {
  await mkdir(stratosHome, {recursive: true});
  await writeFile(
    join(stratosHome, 'settings.json'),
    JSON.stringify({engine: {type: 'dbos', databaseUrl: '{env:TEST_ENGINE_DB}', queues: {talk: {}}}}),
  );
}

const prompts = (tag: string, from = 0) =>
  server
    .turns()
    .slice(from)
    .map((turn) => turn.userText)
    .filter((text) => text.startsWith(`${tag} `));

/** Enqueues a four-turn run tagged `tag` on a worker with id `id`; kills the worker once turn 3 is in flight. */
async function startAndKill(tag: string, id: string, workflow = 'talk'): Promise<string> {
  const first = await startWorkerProcess(['--queue', 'talk', '--id', id], {cwd: project.cwd, env});
  workers.push(first);
  const enqueued = await project.cli(
    ['run', workflow, '--input', JSON.stringify({turns: 4, tag}), '--queue', 'talk', '--json'],
    {env},
  );
  assert.equal(enqueued.exitCode, 0, enqueued.stderr);
  await waitUntil(() => prompts(tag).includes(`${tag} TURN 3`));
  first.child.kill('SIGKILL');
  await first.exited;
  for (const {pid} of await findMarkedProcesses(home.marker)) process.kill(pid, 'SIGKILL');
  assert.deepEqual(prompts(tag), [`${tag} TURN 1`, `${tag} TURN 2`, `${tag} TURN 3`]);
  return enqueued.json.data.runId as string;
}

test('a recovered queued run continues its agent native conversation, sending only the remaining turns', async () => {
  const runId = await startAndKill('same', 'talk-1');
  released.add('same');
  const seen = server.turns().length;
  const again = await startWorkerProcess(['--queue', 'talk', '--id', 'talk-1'], {cwd: project.cwd, env});
  workers.push(again);
  await again.waitFor(new RegExp(`run ${runId} \\(talk\\) (succeeded|failed)`));
  const shown = await project.cli(['runs', 'show', runId, '--json'], {env});
  assert.equal(shown.json.data.queued.status, 'succeeded', JSON.stringify(shown.json.data.queued.result));
  assert.deepEqual(shown.json.data.queued.result.output, {
    answers: ['ANSWER 1', 'ANSWER 2', 'ANSWER 3', 'ANSWER 4'],
  });
  assert.deepEqual(prompts('same', seen), ['same TURN 3', 'same TURN 4']);
  const continued = server.turns()[seen]!;
  assert.ok(
    continued.transcript.includes('same TURN 1') && continued.transcript.includes('ANSWER 2'),
    `the resumed request carries the earlier turns: ${continued.transcript}`,
  );
  assert.equal(await again.stop('SIGINT'), 0, again.stderr());
});

test('a run recovered on another machine is refused before any request when its agent holds a conversation there', async () => {
  const runId = await startAndKill('moved', 'move-1');
  released.add('moved');
  const seen = server.turns().length;
  const elsewhere = await startElsewhere('move-1');
  await elsewhere.waitFor(new RegExp(`run ${runId} \\(talk\\) (succeeded|failed)`));
  const result = await refusal(runId);
  assert.match(
    result.error.message,
    /Agent 'main' cannot continue on this machine: its codex conversation \(\S+\) is on machine /,
  );
  assert.match(
    result.error.message,
    /Nothing was sent\. Enqueue the workflow anew; to recover such runs, start the dead worker again on /,
  );
  assert.notEqual(result.error.details.machine.id, result.error.details.here.id);
  assert.deepEqual(prompts('moved', seen), [], 'no request after the refusal');
  assert.equal(await elsewhere.stop('SIGINT'), 0, elsewhere.stderr());
});

test('an agent whose earlier turns worked in a worktree on another machine is refused, naming the worktree', async () => {
  const runId = await startAndKill('tree', 'tree-1', 'tree');
  released.add('tree');
  const seen = server.turns().length;
  const elsewhere = await startElsewhere('tree-1');
  await elsewhere.waitFor(new RegExp(`run ${runId} \\(tree\\) (succeeded|failed)`));
  const result = await refusal(runId);
  assert.match(
    result.error.message,
    /its codex conversation \(\S+\) and its worktree \(\S+\/\.stratos\/worktrees\/\S+\) are on machine /,
  );
  assert.deepEqual(prompts('tree', seen), [], 'no request after the refusal');
  assert.equal(await elsewhere.stop('SIGINT'), 0, elsewhere.stderr());
});

/** A worker on another machine: its own Stratos home (and so its own machine id), the same database and worker id. */
async function startElsewhere(id: string): Promise<WorkerProcess> {
  const otherHome = join(project.home, '..', `home-${id}`);
  await writeSettings(otherHome);
  const worker = await startWorkerProcess(['--queue', 'talk', '--id', id], {
    cwd: project.cwd,
    env: {...env, STRATOS_HOME: otherHome},
  });
  workers.push(worker);
  return worker;
}

/** The run's recorded failure, which must be the refusal. */
// biome-ignore lint/suspicious/noExplicitAny: the run's JSON record
async function refusal(runId: string): Promise<any> {
  const shown = await project.cli(['runs', 'show', runId, '--json'], {env});
  const {status, result} = shown.json.data.queued;
  assert.equal(status, 'failed', JSON.stringify(result));
  assert.equal(result.error.code, 'STRATOS_QUEUE_SESSION_ELSEWHERE', result.error.message);
  return result;
}
