// Hardening, no raw crash, through the real CLI: a run that can never settle, an uncaught exception or unhandled
// rejection in workflow code, an output that cannot be written as JSON and a process.exit call each end the command
// with its one result (one envelope on stdout under --json), exit code 1 and a final run.json; the failure is the
// run's own (a child's, when it came from the child), the run's owned work is still cleaned up, `stratos test`
// reports such cases as errored, and one left behind by a run that has ended is a warning that fails no other run.
import assert from 'node:assert/strict';
import {readdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';

let project: TempProject;

const flakySource = `import {existsSync, writeFileSync} from 'node:fs';
import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

const sleep = () => new Promise((resolve) => setTimeout(resolve, 600_000));
// Waits for nothing, without a timer of its own: what ends the run is the failure the mode causes.
const forever = () => new Promise(() => {});

export default workflow({
  input: z.strictObject({
    mode: z
      .enum(['ok', 'hang', 'timer-throw', 'rejection', 'sleep', 'exit', 'exit-swallowed', 'exit-timer', 'late-throw', 'wait-late'])
      .describe('How to misbehave'),
  }),
  output: z.object({mode: z.string().describe('The mode it ran in')}),
  async run({mode}) {
    if (mode === 'hang') await new Promise(() => {});
    if (mode === 'timer-throw') {
      setTimeout(() => {
        throw new Error('thrown in a timer');
      });
      await forever();
    }
    if (mode === 'rejection') {
      void Promise.reject(new Error('rejected and never handled'));
      await forever();
    }
    if (mode === 'sleep') {
      writeFileSync('child-started', '');
      await sleep();
    }
    if (mode === 'exit') {
      process.exit(0);
      console.error('after process.exit');
    }
    if (mode === 'exit-swallowed') {
      try {
        process.exit(0);
      } catch {
        // The author swallows whatever process.exit does.
      }
    }
    if (mode === 'exit-timer') {
      setTimeout(() => process.exit(0));
      await forever();
    }
    if (mode === 'late-throw') {
      // Left behind: throws once another run is running, after this run has ended.
      const poll = setInterval(() => {
        if (!existsSync('waiting-for-late')) return;
        clearInterval(poll);
        writeFileSync('late-thrown', '');
        throw new Error('thrown after the run ended');
      }, 10);
    }
    if (mode === 'wait-late') {
      writeFileSync('waiting-for-late', '');
      while (!existsSync('late-thrown')) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return {mode};
  },
});
`;

const parentSource = `import {existsSync} from 'node:fs';
import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createFlaky from '../.generated/flaky.js';

export default workflow({
  input: z.strictObject({
    scenario: z.enum(['attribute', 'child-hangs', 'owned-child']).describe('What to try'),
  }),
  output: z.object({
    failed: z.string().describe('The failed child: its code, the code of its own failure, its message'),
    other: z.string().describe('The outcome of the well-behaved child'),
  }),
  async run({scenario}) {
    const flaky = createFlaky();
    if (scenario === 'child-hangs') await flaky.execute({mode: 'hang'});
    if (scenario === 'owned-child') {
      flaky.execute({mode: 'sleep'}).catch(() => {});
      // The parent fails only once its child runs, so that there is running work to clean up.
      while (!existsSync('child-started')) await new Promise((resolve) => setTimeout(resolve, 10));
      setTimeout(() => {
        throw new Error('the parent threw in a timer');
      });
      await new Promise((resolve) => setTimeout(resolve, 600_000));
    }
    const [failed, other] = await Promise.allSettled([
      flaky.execute({mode: 'timer-throw'}),
      flaky.execute({mode: 'ok'}),
    ]);
    const reason = failed.status === 'rejected' ? failed.reason : undefined;
    return {
      failed: reason === undefined ? 'fulfilled' : \`\${reason.code} \${reason.details?.code}: \${reason.message}\`,
      other: other.status,
    };
  },
});
`;

const badOutputSource = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({kind: z.enum(['toJSON', 'function', 'symbol']).describe('What to return')}),
  output: z.object({value: z.unknown().describe('A value')}),
  run({kind}) {
    if (kind === 'toJSON') {
      return {value: {nested: {toJSON() { throw new Error('toJSON refuses'); }}}};
    }
    if (kind === 'function') return {value: {list: [1, () => 2]}};
    return {value: {tag: Symbol('tag')}};
  },
});
`;

const exitsAtLoadSource = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

process.exit(0);

export default workflow({
  input: z.strictObject({}),
  output: z.object({}),
  run() {
    return {};
  },
});
`;

before(async () => {
  project = await createTempProject('stratos-hardening-crashes-');
  await project.writeWorkflow('flaky', {'workflow.yaml': manifest('flaky'), 'workflow.ts': flakySource});
  await project.writeWorkflow('parent', {'workflow.yaml': manifest('parent'), 'workflow.ts': parentSource});
  await project.writeWorkflow('bad-output', {
    'workflow.yaml': manifest('bad-output'),
    'workflow.ts': badOutputSource,
  });
  // Built once up front: each test then runs the workflows, not the compiler.
  const built = await project.cli(['build', '--json']);
  assert.equal(built.exitCode, 0, built.stdout + built.stderr);
});

after(() => project.remove());

interface RunRecord {
  executionId: string;
  status: string;
  error?: {code: string; message: string};
  runId: string;
}

/** The run.json of the run the envelope names. */
async function runRecord(envelope: {
  data?: {runDirectory?: string};
  error?: {details?: {runDirectory?: string}};
}) {
  const directory = envelope.data?.runDirectory ?? envelope.error?.details?.runDirectory;
  assert.ok(directory, `the envelope names its run directory: ${JSON.stringify(envelope)}`);
  return {
    record: JSON.parse(await readFile(join(directory, 'run.json'), 'utf8')) as RunRecord,
    events: (await readFile(join(directory, 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as {type: string; workflow: string; executionId: string; status?: string},
      ),
  };
}

async function runFlaky(mode: string, json = true) {
  return project.cli(['run', 'flaky', '--input', JSON.stringify({mode}), ...(json ? ['--json'] : [])]);
}

/** One envelope on stdout, exit code 1, the code, and a run.json that ended failed with the same code. */
async function assertFailedRun(result: Awaited<ReturnType<typeof runFlaky>>, code: string) {
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  assert.ok(result.json, `stdout holds exactly one envelope: ${result.stdout}`);
  assert.equal(result.json.ok, false);
  assert.equal(result.json.error.code, code, result.stdout);
  assert.doesNotMatch(result.stderr, /Detected unsettled top-level await|Node\.js v\d|STRATOS_INTERNAL/);
  const {record, events} = await runRecord(result.json);
  assert.equal(record.status, 'failed');
  assert.equal(record.error?.code, code);
  const end = events.find((e) => e.type === 'workflow.end' && e.executionId === record.executionId);
  assert.equal(end?.status, 'error', 'the workflow span was ended');
  return {record, events};
}

test('a run whose promise can never settle fails with STRATOS_RUN_NEVER_SETTLED instead of exit 13', async () => {
  const result = await runFlaky('hang');
  await assertFailedRun(result, 'STRATOS_RUN_NEVER_SETTLED');
  assert.match(result.json.error.message, /Workflow 'flaky' never settled/);
  const readable = await runFlaky('hang', false);
  assert.equal(readable.exitCode, 1);
  assert.match(readable.stderr, /^error STRATOS_RUN_NEVER_SETTLED/m);
});

test('an exception thrown in a timer fails the run with its message and the error as cause', async () => {
  const result = await runFlaky('timer-throw');
  const {record} = await assertFailedRun(result, 'STRATOS_RUN_UNCAUGHT_ERROR');
  assert.match(result.json.error.message, /thrown in a timer/);
  assert.deepEqual(result.json.error.details.causes, [{message: 'thrown in a timer'}]);
  assert.match(record.error?.message ?? '', /thrown in a timer/);
  const readable = await runFlaky('timer-throw', false);
  assert.equal(readable.exitCode, 1);
  assert.match(readable.stderr, /^error STRATOS_RUN_UNCAUGHT_ERROR/m);
  // The message already holds the cause's words, so the readable output says them once (no `Caused by:` line).
  assert.equal(readable.stderr.match(/thrown in a timer/g)?.length, 1, readable.stderr);
});

test('an unhandled rejection fails the run the same way', async () => {
  const result = await runFlaky('rejection');
  await assertFailedRun(result, 'STRATOS_RUN_UNCAUGHT_ERROR');
  assert.match(
    result.json.error.message,
    /rejected a promise that nothing handled \(rejected and never handled\)/,
  );
});

test('an uncaught error is the failure of the child it came from, not of its parent or a sibling', async () => {
  const result = await project.cli(['run', 'parent', '--input', '{"scenario":"attribute"}', '--json']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const output = result.json.data.output;
  assert.match(
    output.failed,
    /^STRATOS_WORKFLOW_CHILD_FAILED STRATOS_RUN_UNCAUGHT_ERROR: .*thrown in a timer/,
  );
  assert.equal(output.other, 'fulfilled');
  const {record} = await runRecord(result.json);
  assert.equal(record.status, 'succeeded');
});

test('a child that can never settle fails its awaiting parent through the child failure', async () => {
  const result = await project.cli(['run', 'parent', '--input', '{"scenario":"child-hangs"}', '--json']);
  await assertFailedRun(result, 'STRATOS_WORKFLOW_CHILD_FAILED');
  assert.equal(result.json.error.details.code, 'STRATOS_RUN_NEVER_SETTLED', result.stdout);
});

test('a run failed by an uncaught error still cleans up its owned work: a running child is ended', async () => {
  const result = await project.cli(['run', 'parent', '--input', '{"scenario":"owned-child"}', '--json']);
  const {events} = await assertFailedRun(result, 'STRATOS_RUN_UNCAUGHT_ERROR');
  assert.match(result.json.error.message, /the parent threw in a timer/);
  const child = events.filter((e) => e.workflow === 'flaky').map((e) => `${e.type} ${e.status ?? ''}`.trim());
  // Its preparation ended before it started running; the child itself was cancelled.
  assert.deepEqual(child, [
    'workflow.start',
    'operation.start',
    'operation.end ok',
    'workflow.end cancelled',
  ]);
});

for (const mode of ['exit', 'exit-swallowed', 'exit-timer']) {
  test(`process.exit in workflow code (${mode}) is refused and fails the run with STRATOS_RUN_PROCESS_EXIT`, async () => {
    const result = await runFlaky(mode);
    await assertFailedRun(result, 'STRATOS_RUN_PROCESS_EXIT');
    assert.match(result.json.error.message, /called process\.exit\(0\)/);
    assert.doesNotMatch(result.stderr, /after process\.exit/, 'the code after process.exit did not run');
  });
}

test('process.exit in a workflow module, outside run, fails loading it with one envelope', async () => {
  await project.writeWorkflow('exits-at-load', {
    'workflow.yaml': manifest('exits-at-load'),
    'workflow.ts': exitsAtLoadSource,
  });
  const result = await project.cli(['run', 'exits-at-load', '--json']);
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  assert.ok(result.json, `stdout holds exactly one envelope: ${result.stdout}`);
  assert.equal(result.json.error.code, 'STRATOS_CONTRACT_MODULE_FAILED', result.stdout);
  const [diagnostic] = result.json.error.details.diagnostics;
  assert.equal(diagnostic.code, 'STRATOS_CONTRACT_MODULE_FAILED');
  assert.match(diagnostic.message, /called process\.exit\(0\) outside a workflow's run/);
});

for (const [kind, path, message] of [
  ['toJSON', 'value.nested', /toJSON\(\) method threw: toJSON refuses/],
  ['function', 'value.list[1]', /function cannot be written as JSON/],
  ['symbol', 'value.tag', /symbol cannot be written as JSON/],
] as const) {
  test(`an output holding a ${kind} that JSON cannot write fails before run.json says succeeded`, async () => {
    const result = await project.cli(['run', 'bad-output', '--input', JSON.stringify({kind}), '--json']);
    await assertFailedRun(result, 'STRATOS_OUTPUT_INVALID');
    assert.deepEqual(
      result.json.error.details.issues.map((issue: {path: string}) => issue.path),
      [path],
    );
    assert.match(result.json.error.message, message);
  });
}

test('stratos test reports each misbehaving case as errored with its code, in one envelope', async () => {
  for (const mode of ['hang', 'timer-throw', 'exit']) {
    await project.write(
      `.stratos/workflows/flaky/tests/${mode}.yaml`,
      `input: {mode: ${mode}}\noutput: {mode: ${mode}}\n`,
    );
  }
  await project.write('.stratos/workflows/flaky/tests/ok.yaml', 'input: {mode: ok}\noutput: {mode: ok}\n');
  const result = await project.cli(['test', 'flaky', '--json']);
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  assert.ok(result.json, `stdout holds exactly one envelope: ${result.stdout}`);
  const cases = Object.fromEntries(
    result.json.error.details.cases.map((c: {case: string; status: string; error?: {code: string}}) => [
      c.case,
      `${c.status} ${c.error?.code ?? ''}`.trim(),
    ]),
  );
  assert.deepEqual(cases, {
    exit: 'errored STRATOS_RUN_PROCESS_EXIT',
    hang: 'errored STRATOS_RUN_NEVER_SETTLED',
    ok: 'passed',
    'timer-throw': 'errored STRATOS_RUN_UNCAUGHT_ERROR',
  });
});

test('an error thrown after its run ended is a warning, and fails no other run', async () => {
  await project.writeWorkflow('late', {
    'workflow.yaml': manifest('late'),
    'workflow.ts': flakySource,
    'tests/a-late-throw.yaml': 'input: {mode: late-throw}\noutput: {mode: late-throw}\n',
    'tests/b-wait-late.yaml': 'input: {mode: wait-late}\noutput: {mode: wait-late}\n',
  });
  const result = await project.cli(['test', 'late', '--json']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.equal(result.json.data.summary.passed, 2, result.stdout);
  assert.match(
    result.stderr,
    /warning STRATOS_RUN_UNCAUGHT_ERROR: Workflow 'late' threw an exception that nothing caught after its run had ended \(thrown after the run ended\)/,
  );
});

test('no run of these commands is left running', async () => {
  const runs = join(project.home, 'runs');
  for (const workspace of await readdir(runs)) {
    for (const run of await readdir(join(runs, workspace))) {
      if (run.endsWith('.json')) continue;
      const record = JSON.parse(await readFile(join(runs, workspace, run, 'run.json'), 'utf8')) as RunRecord;
      assert.notEqual(record.status, 'running', run);
    }
  }
});
