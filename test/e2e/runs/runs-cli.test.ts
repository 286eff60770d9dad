// The real CLI: local run artifacts of `stratos run`, `stratos runs list/show`, retention by the background
// cleaner, and the credential canary over every artifact and exported span.
import assert from 'node:assert/strict';
import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {pollUntil} from '../../helpers/wait-for.ts';
import {type OtlpReceiver, startOtlpReceiver} from '../../servers/otlp/index.ts';

let project: TempProject;

const loggingWorkflow = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({fail: z.boolean().describe('Throw instead of returning')}),
  output: z.object({done: z.boolean().describe('')}),
  run({fail}) {
    console.log('step one', {count: 2});
    console.error('a warning line');
    if (fail) throw new Error('deliberate failure');
    return {done: true};
  },
});
`;

before(async () => {
  project = await createTempProject('stratos-runs-');
  await project.writeWorkflow('logger', {
    'workflow.yaml': manifest('logger'),
    'workflow.ts': loggingWorkflow,
  });
});

after(() => project.remove());

test('a run writes run.json, run.log and events.jsonl, and runs list/show read them back', async () => {
  const ok = await project.cli(['run', 'logger', '--input', '{"fail":false}', '--json']);
  assert.equal(ok.exitCode, 0, ok.stderr);
  const failed = await project.cli(['run', 'logger', '--input', '{"fail":true}', '--json']);
  assert.equal(failed.exitCode, 1);

  const directory: string = ok.json.data.runDirectory;
  assert.ok(directory.startsWith(join(project.home, 'runs', 'work-')), directory);
  assert.match(directory, /\/\d{8}T\d{9}Z-[0-9a-f]{16}$/);
  const record = JSON.parse(await readFile(join(directory, 'run.json'), 'utf8'));
  assert.equal(record.status, 'succeeded');
  assert.equal(record.executionId, ok.json.data.executionId);
  assert.equal(record.input.preview, '{"fail":false}');
  assert.equal(record.output.preview, '{"done":true}');
  const workspace = JSON.parse(await readFile(join(directory, '..', 'workspace.json'), 'utf8'));
  assert.equal(workspace.path, project.cwd);

  const log = await readFile(join(directory, 'run.log'), 'utf8');
  assert.match(log, /\[logger [0-9a-f]{8}\] log {3}step one \{ count: 2 \}/);
  assert.match(log, /error a warning line/);
  const events = (await readFile(join(directory, 'events.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    events.map((e) => e.type),
    ['workflow.start', 'operation.start', 'operation.end', 'console', 'console', 'workflow.end'],
  );
  assert.ok(events.every((e) => e.executionId === record.executionId && e.traceId === record.traceId));

  const list = await project.cli(['runs', 'list', '--json']);
  assert.equal(list.exitCode, 0, list.stderr);
  assert.deepEqual(
    list.json.data.runs.map((r: {status: string}) => r.status),
    ['failed', 'succeeded'],
  );
  assert.equal(list.json.data.runs[0].error.message, "Workflow 'logger' failed: deliberate failure");

  const show = await project.cli([
    'runs',
    'show',
    failed.json.error.details.executionId.slice(0, 10),
    '--json',
  ]);
  assert.equal(show.exitCode, 0, show.stderr);
  const [root] = show.json.data.tree;
  assert.equal(root.kind, 'workflow');
  assert.equal(root.status, 'error');
  assert.equal(root.consoleMessages, 2);
  assert.deepEqual(show.json.data.usage, {}, 'unknown token usage is not filled in');

  const human = await project.cli(['runs', 'show', ok.json.data.executionId]);
  assert.match(human.stdout, /^workflow logger [0-9a-f]{8} succeeded [\d.]+ ms {2}2 console$/m);
  const missing = await project.cli(['runs', 'show', 'nope', '--json']);
  assert.equal(missing.json.error.code, 'STRATOS_RUNS_NOT_FOUND');
});

test('retention keeps the latest runs per workspace and overall, never an active run', async () => {
  const retention = await createTempProject('stratos-retention-');
  try {
    await retention.writeWorkflow('logger', {
      'workflow.yaml': manifest('logger'),
      'workflow.ts': loggingWorkflow,
    });
    const first = await retention.cli(['run', 'logger', '--input', '{"fail":false}', '--json']);
    assert.equal(first.exitCode, 0, first.stderr);
    const workspaceA = join(first.json.data.runDirectory, '..');
    const workspaceB = join(retention.home, 'runs', 'other-0123abcd');
    await mkdir(workspaceB, {recursive: true});
    await writeFile(join(workspaceB, 'workspace.json'), JSON.stringify({path: '/somewhere/other'}));
    const fake = async (workspace: string, runId: string, status: string, pid = 999_999_999) => {
      await mkdir(join(workspace, runId), {recursive: true});
      await writeFile(join(workspace, runId, 'run.json'), JSON.stringify({runId, status, pid}));
    };
    for (let i = 1; i <= 6; i++) await fake(workspaceA, `20200101T00000${i}000Z-a${i}`, 'succeeded');
    await fake(workspaceA, '20190101T000000000Z-active', 'running', process.pid);
    for (let i = 1; i <= 4; i++) await fake(workspaceB, `20210101T00000${i}000Z-b${i}`, 'failed');
    await fake(workspaceB, '20180101T000000000Z-crashed', 'running');
    await writeFile(
      join(retention.home, 'settings.json'),
      JSON.stringify({retention: {perWorkspace: 3, total: 5}}),
    );

    const second = await retention.cli(['run', 'logger', '--input', '{"fail":false}', '--json']);
    assert.equal(second.exitCode, 0, second.stderr);
    const real = [first, second].map((r) => r.json.data.runDirectory.split('/').pop()).sort();
    // Per workspace: A keeps the two real runs and a6; B keeps b4, b3, b2. Overall 5: a6 is the oldest survivor
    // of six and goes; the active run stays and does not count.
    const expectedA = [real[0], real[1], '20190101T000000000Z-active'].sort();
    const expectedB = ['20210101T000002000Z-b2', '20210101T000003000Z-b3', '20210101T000004000Z-b4'];
    const runsIn = async (w: string) =>
      (await readdir(w, {withFileTypes: true}))
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort();
    await pollUntil(
      async () =>
        JSON.stringify(await runsIn(workspaceA)) === JSON.stringify(expectedA) &&
        JSON.stringify(await runsIn(workspaceB)) === JSON.stringify(expectedB),
      {timeoutMs: 15_000, intervalMs: 100},
    );
    assert.deepEqual(await runsIn(workspaceA), expectedA);
    assert.deepEqual(await runsIn(workspaceB), expectedB);

    await writeFile(join(retention.home, 'settings.json'), '{"retention": {"total": "many"}}');
    const third = await retention.cli(['run', 'logger', '--input', '{"fail":false}', '--json']);
    assert.equal(third.exitCode, 0, 'malformed settings never fail a run');
    assert.ok(third.json.warnings.some((w: {code: string}) => w.code === 'STRATOS_SETTINGS_INVALID'));
  } finally {
    await retention.remove();
  }
});

test('a workspace one run over its limit is trimmed by the run itself, before the command exits', async () => {
  const trim = await createTempProject('stratos-retention-trim-');
  try {
    await trim.writeWorkflow('logger', {'workflow.yaml': manifest('logger'), 'workflow.ts': loggingWorkflow});
    await writeFile(
      join(trim.home, 'settings.json'),
      JSON.stringify({retention: {perWorkspace: 2, total: 100}}),
    );
    const runs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await trim.cli(['run', 'logger', '--input', '{"fail":false}', '--json']);
      assert.equal(result.exitCode, 0, result.stderr);
      assert.deepEqual(result.json.warnings, []);
      runs.push(result.json.data.runDirectory);
    }
    const workspace = join(runs[0]!, '..');
    // No waiting: the removal happened in the run's own process, not in a detached cleaner.
    const left = (await readdir(workspace, {withFileTypes: true}))
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    assert.deepEqual(
      left.sort(),
      runs
        .slice(1)
        .map((run) => run.split('/').pop())
        .sort(),
    );
  } finally {
    await trim.remove();
  }
});

test('canary: no header, referenced or credential value reaches any artifact or exported span', async () => {
  const canary = 'canary-7f3a9c1e5b2d4086';
  const receiver: OtlpReceiver = await startOtlpReceiver();
  try {
    await project.writeWorkflow('leaky', {
      'workflow.yaml': manifest(
        'leaky',
        [
          'mcp:',
          '  servers:',
          '    remote:',
          '      type: http',
          '      url: http://127.0.0.1:9/mcp',
          '      headers:',
          '        X-Tenant: "{env:TENANT_HEADER}"',
          'telemetry:',
          '  exporters:',
          '    - type: file',
          '      path: traces.jsonl',
          '    - type: otlp',
          '      protocol: http/json',
          `      endpoint: ${receiver.httpUrl}/v1/traces`,
          '      headers:',
          '        Authorization: "Bearer {env:TENANT_HEADER}"',
          '',
        ].join('\n'),
      ),
      'workflow.ts': `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
export default workflow({
  input: z.strictObject({}),
  output: z.object({}),
  run() {
    const token = process.env.TENANT_HEADER;
    console.log('the token is', token, {authorization: 'Bearer ' + token});
    throw new Error('failed while holding ' + token);
  },
});
`,
    });
    const result = await project.cli(['run', 'leaky', '--json'], {env: {TENANT_HEADER: canary}});
    assert.equal(result.exitCode, 1, result.stderr);
    await receiver.waitForSpans(1);
    assert.equal(
      receiver.requests()[0]?.headers.authorization,
      `Bearer ${canary}`,
      'the header reached its destination',
    );

    const files: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, {withFileTypes: true})) {
        if (entry.isDirectory()) await walk(join(dir, entry.name));
        else files.push(join(dir, entry.name));
      }
    };
    await walk(join(project.home, 'runs'));
    files.push(join(project.projectRoot, 'leaky', 'traces.jsonl'));
    let redactions = 0;
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      assert.ok(!text.includes(canary), `${file} contains the canary`);
      redactions += text.split('[REDACTED]').length - 1;
    }
    assert.ok(redactions >= 3, 'the console line and error were recorded, redacted');
    assert.ok(!JSON.stringify(receiver.spans()).includes(canary), 'an exported span contains the canary');
    assert.match(JSON.stringify(receiver.spans()), /REDACTED/);
  } finally {
    await receiver.close();
  }
});
