// `stratos test` and `stratos runs record` with decisions, through the real CLI: a real run of the triage example
// against the scripted Ollama server becomes a case whose decision answers replay to the same output with no
// server; a decision the case answers for other questions, an unused decision script and an answer that does not
// fit its question each get their report.
import assert from 'node:assert/strict';
import {cp, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {parse} from 'yaml';
import {createTempProject, type TempProject} from '../../helpers/temp-project.ts';
import {type OllamaServer, startOllamaServer} from '../../servers/ollama/index.ts';

const example = fileURLToPath(new URL('../../../examples/triage', import.meta.url));
// Nothing listens here: a decision that reached a model would fail.
const nowhere = 'http://127.0.0.1:9';
let server: OllamaServer;
let project: TempProject;

before(async () => {
  server = await startOllamaServer({
    models: [{name: 'qwen3:8b', capabilities: ['completion'], contextLength: 40960}],
    chat: () => ({
      answer: {queue: 'B', urgent: true, severity: '1'},
      candidates: {
        queue: {A: 0.15, B: 0.8, C: 0.05},
        urgent: {true: 0.7, false: 0.3},
        severity: {'0': 0.2, '1': 0.5, '2': 0.3},
      },
    }),
  });
  project = await createTempProject('stratos-test-decisions-');
  await cp(example, join(project.projectRoot, 'triage'), {
    recursive: true,
    filter: (source) => !/[\\/](dist|generated|node_modules|tests)$/.test(source),
  });
});

after(async () => {
  await server?.close();
  await project?.remove();
});

const ticket = 'I was charged twice for my subscription this month.';

test("a recorded run's decision answers replay to the same output without the Ollama server", async () => {
  const run = await project.cli(['run', 'triage', '--input', JSON.stringify({ticket}), '--json'], {
    env: {OLLAMA_HOST: server.url},
  });
  assert.equal(run.exitCode, 0, run.stdout + run.stderr);
  assert.equal(run.json.data.output.queue, 'billing');
  const requests = server.requestsTo('/api/chat').length;

  const recorded = await project.cli([
    'runs',
    'record',
    run.json.data.executionId,
    '--case',
    'double-charge',
    '--json',
  ]);
  assert.equal(recorded.exitCode, 0, recorded.stdout + recorded.stderr);
  assert.deepEqual(recorded.json.data.needsValue, []);
  const saved = parse(await readFile(recorded.json.data.file, 'utf8'));
  assert.equal(saved.decisions.length, 1);
  assert.equal(saved.decisions[0].decision, 'triage');
  assert.deepEqual(Object.keys(saved.decisions[0].answers).sort(), ['queue', 'severity', 'urgent']);
  assert.equal(saved.decisions[0].answers.queue.choice, 'billing');

  const replay = await project.cli(['test', 'triage', '--json'], {env: {OLLAMA_HOST: nowhere}});
  assert.equal(replay.exitCode, 0, replay.stdout + replay.stderr);
  assert.equal(replay.json.data.cases[0].status, 'passed');
  assert.deepEqual(replay.json.data.cases[0].output, run.json.data.output);
  assert.equal(server.requestsTo('/api/chat').length, requests, 'the replay asked the server nothing');
});

test('decision scripts that do not fit the call each fail the case, naming the decision', async () => {
  const answers = {
    queue: {choice: 'bug', probabilities: {bug: 0.8, billing: 0.1, account: 0.1}},
    urgent: {noul: 0.5},
    severity: {score: 1, probabilities: [0.2, 0.6, 0.2]},
  };
  const cases: Record<string, unknown> = {
    'other-questions': {
      input: {ticket},
      match: {},
      decisions: [{decision: 'triage', answers: {queue: answers.queue}}],
    },
    'unused-decision': {
      input: {ticket},
      match: {queue: 'bug'},
      decisions: [
        {decision: 'triage', answers},
        {decision: 'triage', answers},
      ],
    },
    'unknown-option': {
      input: {ticket},
      match: {},
      decisions: [{decision: 'triage', answers: {...answers, queue: {...answers.queue, choice: 'refunds'}}}],
    },
  };
  for (const [name, content] of Object.entries(cases)) {
    await project.write(`.stratos/workflows/triage/tests/${name}.json`, JSON.stringify(content));
  }
  const result = await project.cli(['test', 'triage', '--json'], {env: {OLLAMA_HOST: nowhere}});
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  type Report = {status: string; problems: {code: string; message: string}[]};
  const reports = new Map<string, Report>(
    result.json.error.details.cases.map((c: {case: string}) => [c.case, c]),
  );
  const at = (name: string): Report => {
    const report = reports.get(name);
    assert.ok(report, `case ${name} is reported`);
    return report;
  };
  assert.equal(at('double-charge').status, 'passed');

  const other = at('other-questions');
  assert.equal(other.status, 'failed');
  assert.deepEqual(
    other.problems.map((p) => p.code),
    ['STRATOS_TEST_CALL_UNSCRIPTED'],
  );
  assert.match(
    other.problems[0]!.message,
    /Decision 'triage' of workflow 'triage' asked 'queue', 'urgent', 'severity'/,
  );

  const unused = at('unused-decision');
  assert.equal(unused.status, 'failed');
  assert.deepEqual(
    unused.problems.map((p) => p.code),
    ['STRATOS_TEST_SCRIPT_UNUSED'],
  );
  assert.match(unused.problems[0]!.message, /decision 'triage' \(questions queue, urgent, severity\)/);

  const unknown = at('unknown-option');
  assert.equal(unknown.status, 'errored');
  assert.equal(unknown.problems[0]?.code, 'STRATOS_DECISION_ANSWER_INVALID');
  assert.match(unknown.problems[0]!.message, /refunds/);
});
