// Agent worktrees end to end: the real CLI runs a workflow whose Claude Code agent (the real binary, against the
// scripted Anthropic server) works in a managed worktree of a real Git repository. The agent that writes a file
// leaves its checkout kept with a diagnostic; the agent that changes nothing leaves only its branch.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {readFile, realpath, stat} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {isolateGit} from '../../helpers/git-repo.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {
  type AnthropicServer,
  isMainTurn,
  resultOf,
  startAnthropicServer,
  toolCall,
} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';

let server: AnthropicServer;
let project: TempProject;
let home: HarnessHome;
const systemPrompts: string[] = [];

const workflowSource = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({agent: z.enum(['writer', 'reader']).describe('Which agent runs')}),
  output: z.object({result: z.string().describe('The answer')}),
  async run({agent}) {
    const result = await createAgent(agent).execute(agent === 'writer' ? 'WRITE the notes' : 'READ only');
    return {result};
  },
});
`;

before(async () => {
  await isolateGit();
  server = await startAnthropicServer((turn) => {
    if (!isMainTurn(turn)) return {text: 'side'};
    systemPrompts.push(turn.systemText);
    if (turn.lastText.includes('WRITE') || turn.toolResults.length > 0) {
      if (resultOf(turn, 'Bash') !== undefined) return {text: 'notes written'};
      return toolCall(turn, 'Bash', {
        command: 'pwd > where.txt && echo "from the agent" > agent-notes.txt',
        description: 'Write the notes',
      });
    }
    return {text: 'nothing to change'};
  });
  home = await createHarnessHome({anthropicUrl: server.url});
  project = await createTempProject('stratos-agent-worktree-');
  await project.writeWorkflow('worktree-agents', {
    'workflow.yaml': manifest(
      'worktree-agents',
      `agents:
  writer:
    harness: claude-code
    allowedMcps: []
    worktree: agent-notes
  reader:
    harness: claude-code
    allowedMcps: []
    worktree: true
`,
    ),
    'workflow.ts': workflowSource,
  });
  const git = (args: string[]) => {
    return execFileSync('git', args, {cwd: project.cwd, encoding: 'utf8'});
  };
  await project.write('README.md', '# a project\n');
  git(['init', '-q', '-b', 'main']);
  git(['add', 'README.md']);
  git(['commit', '-q', '-m', 'first']);
  const build = await project.cli(['build', 'worktree-agents', '--json'], {env: home.env});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

after(async () => {
  await server?.close();
  await project?.remove();
  await home?.remove();
});

async function run(agent: 'writer' | 'reader') {
  const result = await project.cli(['run', 'worktree-agents', '--json', '--input', JSON.stringify({agent})], {
    env: home.env,
  });
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.deepEqual(await survivingProcesses(home.marker), [], 'a claude process outlived its run');
  return result.json;
}

// biome-ignore lint/suspicious/noExplicitAny: events.jsonl records of every shape
async function events(runDirectory: string): Promise<Record<string, any>[]> {
  const text = await readFile(join(runDirectory, 'events.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

test('an agent that writes a file in its worktree leaves the checkout kept, with its diagnostic', async () => {
  const envelope = await run('writer');
  assert.equal(envelope.data.output.result, 'notes written');
  const root = await realpath(project.cwd);
  const checkout = join(root, '.stratos', 'worktrees', 'agent-notes');
  // The harness worked in the checkout, not in the workflow's or the invocation's directory.
  assert.equal((await readFile(join(checkout, 'where.txt'), 'utf8')).trim(), checkout);
  assert.equal(await readFile(join(checkout, 'agent-notes.txt'), 'utf8'), 'from the agent\n');
  await assert.rejects(stat(join(root, 'agent-notes.txt')));
  // One concise sentence told the harness who owns the checkout.
  assert.match(
    systemPrompts.at(-1)!,
    /Your working directory .*agent-notes is a Git worktree on branch stratos\/agent-notes whose lifecycle Stratos owns/,
  );
  const warning = envelope.warnings.find((w: {code: string}) => w.code === 'STRATOS_WORKTREE_KEPT_CHANGES');
  assert.ok(warning, JSON.stringify(envelope.warnings));
  assert.match(
    warning.message,
    /Worktree 'agent-notes' at .*agent-notes was kept because it has untracked changes \(agent-notes\.txt, where\.txt\)/,
  );
  // The same decision is in run.log and on the agent span.
  const runDirectory = envelope.data.runDirectory;
  const log = await readFile(join(runDirectory, 'run.log'), 'utf8');
  assert.match(log, /event stratos\.worktree\.created: Agent 'writer' created worktree 'agent-notes'/);
  assert.match(
    log,
    /event stratos\.worktree\.cleanup: Worktree 'agent-notes' .* was kept because it has untracked changes/,
  );
  const records = await events(runDirectory);
  const agentSpan = records.find((r) => r.type === 'operation.start' && r.kind === 'agent.execute')?.spanId;
  const onAgent = records.filter((r) => r.type === 'event' && r.spanId === agentSpan).map((r) => r.name);
  assert.deepEqual(onAgent, ['stratos.worktree.created', 'stratos.worktree.cleanup']);
  // The agent span names the checkout it worked in; preparing it is a phase of the agent's start-up.
  const agentEnd = records.find((r) => r.type === 'operation.end' && r.spanId === agentSpan)!;
  assert.equal(agentEnd.attributes['stratos.agent.worktree.name'], 'agent-notes');
  assert.equal(agentEnd.attributes['stratos.agent.worktree.path'], checkout);
  assert.equal(agentEnd.attributes['stratos.agent.worktree.branch'], 'stratos/agent-notes');
  assert.equal(agentEnd.attributes['stratos.agent.working_directory'], checkout);
  assert.match(String(agentEnd.attributes['gen_ai.system_instructions']), /is a Git worktree on branch/);
  const phase = records.find((r) => r.type === 'operation.end' && r.kind === 'agent.start.worktree')!;
  assert.equal(phase.name, 'prepare worktree');
  assert.equal(phase.status, 'ok');
  const cleanup = records.find((r) => r.name === 'stratos.worktree.cleanup' && r.spanId === agentSpan)!;
  assert.equal(cleanup.attributes['stratos.worktree.action'], 'kept');
  assert.equal(cleanup.attributes['stratos.worktree.reason'], 'changes');
  const runJson = JSON.parse(await readFile(join(runDirectory, 'run.json'), 'utf8'));
  assert.ok(runJson.diagnostics.some((d: {code: string}) => d.code === 'STRATOS_WORKTREE_KEPT_CHANGES'));

  // A later run reuses the kept checkout unchanged.
  const again = await run('writer');
  const log2 = await readFile(join(again.data.runDirectory, 'run.log'), 'utf8');
  assert.match(log2, /event stratos\.worktree\.reused: Agent 'writer' reuses worktree 'agent-notes'/);
  assert.equal(await readFile(join(checkout, 'agent-notes.txt'), 'utf8'), 'from the agent\n');
});

test('an agent that changes nothing leaves no checkout behind, only its branch', async () => {
  const envelope = await run('reader');
  assert.equal(envelope.data.output.result, 'nothing to change');
  // The project has no origin, so the only worktree warning is where the new branch started.
  assert.deepEqual(
    envelope.warnings
      .map((w: {code: string}) => w.code)
      .filter((code: string) => code.startsWith('STRATOS_WORKTREE_')),
    ['STRATOS_WORKTREE_BASE_LOCAL_HEAD'],
  );
  const records = await events(envelope.data.runDirectory);
  const created = records.find((r) => r.name === 'stratos.worktree.created')!;
  const name = created.attributes['stratos.worktree.name'];
  assert.match(name, /^[a-z]+-[a-z]+$/);
  const removed = records.find((r) => r.name === 'stratos.worktree.cleanup')!;
  assert.equal(removed.attributes['stratos.worktree.action'], 'removed');
  await assert.rejects(stat(created.attributes['stratos.worktree.path']));
  assert.equal(
    execFileSync('git', ['branch', '--list', `stratos/${name}`], {cwd: project.cwd, encoding: 'utf8'}).trim(),
    `stratos/${name}`,
  );
});
