// stratos runs resume through the real CLI: a run killed with SIGKILL (or stopped with Ctrl+C) mid-way is resumed
// as a new run; journaled step() results, direct MCP calls and child workflows are not done again, the step in
// flight runs again, and the output equals an uninterrupted run's. Divergence, changed files and succeeded runs
// are refused.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {readFile, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {startCli, waitForFile} from '../../helpers/killable-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';
import {type OllamaServer, startOllamaServer} from '../../servers/ollama/index.ts';

const q = JSON.stringify;

/** Writes `reached-<label>` in dir, then waits until `release` exists there (the test kills the run meanwhile). */
const gate = `async function gate(dir: string, label: string): Promise<void> {
  writeFileSync(join(dir, 'reached-' + label), '');
  while (!existsSync(join(dir, 'release'))) await new Promise((resolve) => setTimeout(resolve, 20));
}`;

const stepper = `import {appendFileSync, existsSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {step, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

${gate}

export default workflow({
  input: z.strictObject({dir: z.string().describe('Scratch folder')}),
  output: z.object({values: z.array(z.string()).describe('Step results')}),
  async run({dir}) {
    const values: string[] = [];
    for (const name of ['a', 'b', 'c', 'd']) {
      values.push(
        await step(name, async () => {
          appendFileSync(join(dir, 'counter'), name + '\\n');
          if (name === 'c') await gate(dir, 'c');
          return name.toUpperCase();
        }),
      );
    }
    return {values};
  },
});
`;

const caller = `import {existsSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createCounter from './generated/mcp/counter.js';

${gate}

export default workflow({
  input: z.strictObject({dir: z.string().describe('Scratch folder')}),
  output: z.object({sums: z.array(z.number()).describe('Sums')}),
  async run({dir}) {
    const counter = await createCounter();
    const sums: number[] = [];
    for (const n of [1, 2, 3]) {
      if (n === 3) await gate(dir, 'mcp');
      const result = await counter.add({a: n, b: n});
      sums.push((result.structuredContent as {sum: number}).sum);
    }
    return {sums};
  },
});
`;

const child = `import {appendFileSync, existsSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {step, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

${gate}

export default workflow({
  input: z.strictObject({dir: z.string().describe('Scratch folder'), label: z.string().describe('Which call')}),
  output: z.object({text: z.string().describe('What it did')}),
  async run({dir, label}) {
    const x = await step('x', () => {
      appendFileSync(join(dir, 'counter'), label + '.x\\n');
      return label + '.x';
    });
    if (label === 'second') await gate(dir, 'child');
    const y = await step('y', () => {
      appendFileSync(join(dir, 'counter'), label + '.y\\n');
      return label + '.y';
    });
    return {text: x + '+' + y};
  },
});
`;

const parent = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createChild from '../.generated/resume-child.js';

export default workflow({
  input: z.strictObject({dir: z.string().describe('Scratch folder')}),
  output: z.object({texts: z.array(z.string()).describe('Child results')}),
  async run({dir}) {
    const child = createChild();
    const texts: string[] = [];
    for (const label of ['first', 'second']) texts.push((await child.execute({dir, label})).text);
    return {texts};
  },
});
`;

const decider = `import {existsSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {choice, decision, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

${gate}

export default workflow({
  input: z.strictObject({dir: z.string().describe('Scratch folder')}),
  output: z.object({kinds: z.array(z.string()).describe('Answers')}),
  async run({dir}) {
    const kinds: string[] = [];
    for (const n of [1, 2, 3]) {
      if (n === 3) await gate(dir, 'decision');
      const {kind} = await decision({
        state: {ticket: n},
        questions: {kind: choice('Which kind?', ['bug', 'billing'])},
        config: 'triage',
      });
      kinds.push(kind.choice + n);
    }
    return {kinds};
  },
});
`;

let ollama: OllamaServer;
let project: TempProject;
let scratch: string;
let callLog: string;

before(async () => {
  project = await createTempProject('stratos-resume-');
  callLog = join(project.home, 'mcp-calls.jsonl');
  await project.writeWorkflow('stepper', {'workflow.yaml': manifest('stepper'), 'workflow.ts': stepper});
  await project.writeWorkflow('caller', {
    'workflow.yaml': manifest(
      'caller',
      `mcp:\n  servers:\n    counter:\n      type: stdio\n      command: ${q(process.execPath)}\n      args: ${q([SERVE_SCRIPT, 'counter', '--stdio'])}\n      env:\n        STRATOS_TEST_CALL_LOG: ${q(callLog)}\n`,
    ),
    'workflow.ts': caller,
  });
  await project.writeWorkflow('resume-child', {
    'workflow.yaml': manifest('resume-child'),
    'workflow.ts': child,
  });
  await project.writeWorkflow('resume-parent', {
    'workflow.yaml': manifest('resume-parent'),
    'workflow.ts': parent,
  });
  ollama = await startOllamaServer({
    models: [{name: 'nimble', capabilities: ['decision']}],
    systemOne: () => ({
      body: {
        model: 'nimble',
        answers: {
          kind: {type: 'choice', choice: 'bug', probabilities: {bug: 0.9, billing: 0.1}, confidence: 0.8},
        },
        usage: {input_tokens: 10, output_tokens: 1},
      },
    }),
  });
  project.env.OLLAMA_HOST = ollama.url;
  await project.writeWorkflow('decider', {
    'workflow.yaml': manifest('decider', 'decisions:\n  triage:\n    provider: ollama\n    model: nimble\n'),
    'workflow.ts': decider,
  });
  const build = await project.cli(['build', '--json']);
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

after(async () => {
  await project?.remove();
  await ollama?.close();
});

/** A fresh scratch folder; the run is started, killed at its gate with `signal`, and its run id returned. */
async function interrupt(
  workflow: string,
  label: string,
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<string> {
  scratch = join(project.cwd, `scratch-${workflow}-${signal}`);
  await rm(scratch, {recursive: true, force: true});
  await project.write(`scratch-${workflow}-${signal}/.keep`, '');
  const started = startCli(['run', workflow, '--input', q({dir: scratch}), '--json'], {
    cwd: project.cwd,
    env: project.env,
  });
  await waitForFile(join(scratch, `reached-${label}`), started.done);
  started.child.kill(signal);
  const ended = await started.done;
  if (signal === 'SIGINT')
    assert.equal(ended.json?.error?.code, 'STRATOS_RUN_CANCELLED', ended.stdout + ended.stderr);
  const listed = await project.cli(['runs', 'list', '--json']);
  const run = listed.json.data.runs.find((r: {workflow: string}) => r.workflow === workflow);
  assert.ok(run, listed.stdout);
  await writeFile(join(scratch, 'release'), '');
  return run.runId;
}

async function lines(path: string): Promise<string[]> {
  return existsSync(path) ? (await readFile(path, 'utf8')).split('\n').filter((line) => line !== '') : [];
}

test('a step() run killed mid-way resumes: journaled steps are not run again, the one in flight is', async () => {
  const runId = await interrupt('stepper', 'c');
  assert.deepEqual(await lines(join(scratch, 'counter')), ['a', 'b', 'c']);
  const resumed = await project.cli(['runs', 'resume', runId, '--json']);
  assert.equal(resumed.exitCode, 0, resumed.stdout + resumed.stderr);
  assert.deepEqual(resumed.json.data.output, {values: ['A', 'B', 'C', 'D']});
  assert.equal(resumed.json.data.resumedFrom, runId);
  assert.deepEqual(await lines(join(scratch, 'counter')), ['a', 'b', 'c', 'c', 'd']);

  // The new run's journal carries the original's entries on, then its own: it could itself be resumed.
  const journal = await lines(join(resumed.json.data.runDirectory, 'journal.jsonl'));
  assert.deepEqual(
    journal.map((line) => JSON.parse(line).key),
    ['stepper/step:a#0', 'stepper/step:b#0', 'stepper/step:c#0', 'stepper/step:d#0'],
  );

  // The output equals an uninterrupted run's.
  const fresh = await project.cli(['run', 'stepper', '--input', q({dir: scratch}), '--json']);
  assert.deepEqual(fresh.json.data.output, resumed.json.data.output);

  // runs list and runs show name the original; the trace marks the replayed steps with the original's ids.
  const listed = await project.cli(['runs', 'list', '--json']);
  const record = listed.json.data.runs.find(
    (r: {executionId: string}) => r.executionId === resumed.json.data.executionId,
  );
  assert.equal(record.resumedFrom, runId);
  const shown = await project.cli(['runs', 'show', resumed.json.data.executionId]);
  assert.match(shown.stdout, new RegExp(`resumed from ${runId}`));
  const events = await readFile(join(resumed.json.data.runDirectory, 'events.jsonl'), 'utf8');
  const replayed = events
    .split('\n')
    .filter((line) => line.includes('"stratos.replayed":true') && line.includes('operation.end'));
  assert.equal(replayed.length, 2, events);
  assert.match(replayed[0]!, /"stratos\.replayed\.span_id":"[0-9a-f]{16}"/);

  // A run that succeeded is not resumed.
  const again = await project.cli(['runs', 'resume', resumed.json.data.executionId, '--json']);
  assert.equal(again.exitCode, 1);
  assert.equal(again.json.error.code, 'STRATOS_RESUME_NOT_RESUMABLE');
  assert.match(again.json.error.message, /succeeded/);
});

test('direct MCP calls that completed are not called again on resume', async () => {
  await rm(callLog, {force: true});
  const runId = await interrupt('caller', 'mcp');
  const calls = async () =>
    (await lines(callLog))
      .map((line) => JSON.parse(line))
      .filter((c) => c.event === 'finish' && c.tool === 'add');
  assert.deepEqual(
    (await calls()).map((c) => c.arguments.a),
    [1, 2],
  );
  const resumed = await project.cli(['runs', 'resume', runId, '--json']);
  assert.equal(resumed.exitCode, 0, resumed.stdout + resumed.stderr);
  assert.deepEqual(resumed.json.data.output, {sums: [2, 4, 6]});
  assert.deepEqual(
    (await calls()).map((c) => c.arguments.a),
    [1, 2, 3],
  );
});

test('a child workflow killed mid-way resumes from its own steps; a completed child is not invoked again', async () => {
  const runId = await interrupt('resume-parent', 'child');
  assert.deepEqual(await lines(join(scratch, 'counter')), ['first.x', 'first.y', 'second.x']);
  const resumed = await project.cli(['runs', 'resume', runId, '--json']);
  assert.equal(resumed.exitCode, 0, resumed.stdout + resumed.stderr);
  assert.deepEqual(resumed.json.data.output, {texts: ['first.x+first.y', 'second.x+second.y']});
  assert.deepEqual(await lines(join(scratch, 'counter')), ['first.x', 'first.y', 'second.x', 'second.y']);
});

test('decisions that were answered are not asked again on resume', async () => {
  const asked = () => ollama.requestsTo('/v1/systemone').map((r) => JSON.stringify(r.body));
  const runId = await interrupt('decider', 'decision');
  assert.equal(asked().length, 2);
  const resumed = await project.cli(['runs', 'resume', runId, '--json']);
  assert.equal(resumed.exitCode, 0, resumed.stdout + resumed.stderr);
  assert.deepEqual(resumed.json.data.output, {kinds: ['bug1', 'bug2', 'bug3']});
  assert.equal(asked().length, 3);
  assert.match(asked()[2]!, /"ticket":3/);
});

test('Ctrl+C then resume', async () => {
  const runId = await interrupt('stepper', 'c', 'SIGINT');
  const resumed = await project.cli(['runs', 'resume', runId, '--json']);
  assert.equal(resumed.exitCode, 0, resumed.stdout + resumed.stderr);
  assert.deepEqual(resumed.json.data.output, {values: ['A', 'B', 'C', 'D']});
  // The cancelled step was not journaled: it ran again.
  assert.deepEqual(await lines(join(scratch, 'counter')), ['a', 'b', 'c', 'c', 'd']);
});

test('changed authored files are refused unless --allow-changed; a different step diverges before any side effect', async () => {
  const runId = await interrupt('stepper', 'c');
  const source = join(project.projectRoot, 'stepper', 'workflow.ts');
  const original = await readFile(source, 'utf8');
  try {
    await writeFile(source, original.replace("['a', 'b', 'c', 'd']", "['a', 'x', 'c', 'd']"));
    const refused = await project.cli(['runs', 'resume', runId, '--json']);
    assert.equal(refused.exitCode, 1);
    assert.equal(refused.json.error.code, 'STRATOS_RESUME_FILES_CHANGED');
    assert.match(refused.json.error.message, /workflow\.ts/);
    const diverged = await project.cli(['runs', 'resume', runId, '--allow-changed', '--json']);
    assert.equal(diverged.exitCode, 1, diverged.stdout);
    assert.equal(diverged.json.error.code, 'STRATOS_RESUME_DIVERGED');
    assert.match(diverged.json.error.message, /stepper\/step:x#0.*stepper\/step:b#0/);
    // Step a was replayed and x never ran: no new side effect.
    assert.deepEqual(await lines(join(scratch, 'counter')), ['a', 'b', 'c']);
  } finally {
    await writeFile(source, original);
  }
});
