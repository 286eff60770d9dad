// decision() end to end: the real CLI runs a real workflow whose decisions go to the scripted Ollama server of
// test/servers/ollama. Several questions in one call, each retry status, malformed answers, missing
// log-probabilities, cancellation during a retry wait, the context check, Ollama's decision API, precedence,
// the telemetry span and `runs show`.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {after, before, test} from 'node:test';
import {cleanEnv, cliPath} from '../../helpers/run-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {type OllamaServer, type ScriptedReply, startOllamaServer} from '../../servers/ollama/index.ts';

let project: TempProject;
let server: OllamaServer;

const triageWorkflow = `import {choice, decision, noul, score, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({
    ticket: z.string().describe('The ticket text'),
    model: z.string().optional().describe('A model set in code'),
    only: z.boolean().optional().describe('Ask only the choice'),
  }),
  output: z.object({answers: z.string().describe('The answers as JSON')}),
  async run({ticket, model, only}) {
    const kind = choice('Which queue handles this ticket?', {bug: 'Software errors', billing: 'Payments', account: null});
    const state = {ticket, tags: ['web', 'checkout']};
    const config = model === undefined ? 'triage' : {name: 'triage', model};
    if (only) return {answers: JSON.stringify(await decision({state, questions: {kind}, config}))};
    const answers = await decision({
      state,
      questions: {
        kind,
        urgent: noul('The ticket needs attention today.'),
        severity: score('How severe is the impact?', ['cosmetic', 'degraded', 'outage']),
      },
      config,
    });
    const routed: 'bug' | 'billing' | 'account' = answers.kind.choice;
    return {answers: JSON.stringify({...answers, routed})};
  },
});
`;

/** Scripts the chat replies by the ticket text inside the user message. */
function chatScript(record: {
  body: {messages?: {role: string; content: string}[]};
  repeat: number;
}): ScriptedReply {
  const user = record.body.messages?.find((m) => m.role === 'user')?.content ?? '';
  const failures = /fail-first:([\d,]+)/.exec(user)?.[1]?.split(',').map(Number) ?? [];
  if (record.repeat < failures.length) return {status: failures[record.repeat]!};
  if (user.includes('always-503')) return {status: 503};
  if (user.includes('status-400')) return {status: 400, error: 'invalid format'};
  if (user.includes('malformed')) return {answer: {kind: 'Z'}, content: '{"kind": "Z"}'};
  if (user.includes('no-logprobs')) return {answer: {kind: 'B'}, withoutLogprobs: true};
  if (user.includes('only-choice'))
    return {answer: {kind: 'A'}, candidates: {kind: {A: 0.5, B: 0.3, C: 0.1, x: 0.1}}};
  return {
    answer: {kind: 'A', urgent: true, severity: '2'},
    candidates: {
      kind: {A: 0.7, B: 0.2, C: 0.05, bug: 0.05},
      urgent: {true: 0.8, false: 0.2},
      severity: {'0': 0.1, '1': 0.3, '2': 0.6},
    },
  };
}

before(async () => {
  server = await startOllamaServer({
    models: [
      {name: 'tiny:1b', capabilities: ['completion'], contextLength: 4096},
      {name: 'small-ctx', capabilities: ['completion'], contextLength: 64},
      {name: 'embedder', capabilities: ['embedding']},
      {name: 'nimble', capabilities: ['decision']},
      {name: 'override-model', capabilities: ['completion'], contextLength: 4096},
      {name: 'code-model', capabilities: ['completion'], contextLength: 4096},
    ],
    chat: chatScript,
    systemOne: () => ({
      body: {
        model: 'nimble',
        answers: {
          kind: {
            type: 'choice',
            choice: 'billing',
            probabilities: {bug: 0.0125, billing: 0.9781, account: 0.0093},
            confidence: 0.8906,
          },
        },
        usage: {input_tokens: 174, output_tokens: 1},
      },
    }),
  });
  project = await createTempProject('stratos-decision-');
  await project.writeWorkflow('triage', {
    'workflow.yaml': manifest('triage', 'decisions:\n  triage:\n    provider: ollama\n    model: tiny:1b\n'),
    'workflow.ts': triageWorkflow,
  });
  await project.writeWorkflow('dispatch', {
    'workflow.yaml': manifest('dispatch'),
    'workflow.ts': `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createTriage from '../.generated/triage.js';

export default workflow({
  input: z.strictObject({ticket: z.string().describe('The ticket text')}),
  output: z.object({answers: z.string().describe('The child answers')}),
  async run({ticket}) {
    const triage = createTriage({decisions: {triage: {model: 'override-model'}}});
    return triage.execute({ticket, only: true});
  },
});
`,
  });
});

after(async () => {
  await server.close();
  await project.remove();
});

function run(input: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) {
  return project.cli(['run', 'triage', '--input', JSON.stringify(input), '--json'], {
    env: {OLLAMA_HOST: server.url, ...env},
  });
}

test('three questions in one request: answers, probabilities from log-probabilities, the request, span and runs show', async () => {
  const before = server.requestsTo('/api/chat').length;
  const result = await run({ticket: 'Checkout returns 500 since 9am.'});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const answers = JSON.parse(result.json.data.output.answers);
  assert.equal(answers.kind.type, 'choice');
  assert.equal(answers.kind.choice, 'bug');
  // 'bug' as a token is not an allowed answer (the labels are A, B, C): its mass is left out, the rest normalised.
  const kind = answers.kind.probabilities;
  assert.ok(
    Math.abs(kind.bug - 0.7 / 0.95) < 1e-9 && Math.abs(kind.billing - 0.2 / 0.95) < 1e-9,
    JSON.stringify(kind),
  );
  assert.ok(Math.abs(kind.bug + kind.billing + kind.account - 1) < 1e-9);
  assert.ok(Math.abs(answers.urgent.noul - 0.8) < 1e-9);
  assert.equal(answers.severity.probabilities.length, 3);
  assert.ok(Math.abs(answers.severity.score - (0.3 + 2 * 0.6)) < 1e-9, String(answers.severity.score));

  const chats = server.requestsTo('/api/chat').slice(before);
  assert.equal(chats.length, 1, 'one request for all three questions');
  const body = chats[0]!.body;
  assert.equal(body.model, 'tiny:1b');
  assert.equal(body.logprobs, true);
  assert.equal(body.top_logprobs, 20);
  assert.equal(body.stream, false);
  assert.deepEqual(body.format.properties.kind, {type: 'string', enum: ['A', 'B', 'C']});
  assert.deepEqual(body.format.properties.urgent, {type: 'boolean'});
  assert.deepEqual(body.format.required, ['kind', 'urgent', 'severity']);
  assert.match(body.messages[1].content, /Checkout returns 500 since 9am\./);

  const runId = result.json.data.runId ?? result.json.data.run?.runId;
  const shown = await project.cli(['runs', 'show', result.json.data.executionId ?? runId, '--json']);
  assert.equal(shown.exitCode, 0, shown.stdout + shown.stderr);
  const node = shown.json.data.tree[0].children.find((child: {kind: string}) => child.kind === 'decision');
  assert.ok(node, JSON.stringify(shown.json.data.tree));
  assert.equal(node.status, 'ok');
  assert.equal(node.attributes['stratos.decision.method'], 'logprobs');
  assert.equal(node.attributes['gen_ai.request.model'], 'tiny:1b');
  assert.equal(node.attributes['gen_ai.usage.input_tokens'], 42);
  // A local Ollama model costs 0; the run's cost counts the decision as one call (docs/cost.md).
  assert.equal(node.attributes['stratos.cost.usd'], 0);
  assert.deepEqual(
    shown.json.data.run.cost.breakdown.map((row: Record<string, unknown>) => [
      row.source,
      row.provider,
      row.usd,
    ]),
    [['decision', 'ollama', 0]],
  );
  assert.equal(node.attributes['stratos.decision.attempts'], 1);
  assert.deepEqual(JSON.parse(node.attributes['stratos.decision.state']), {
    ticket: 'Checkout returns 500 since 9am.',
    tags: ['web', 'checkout'],
  });
  assert.equal(JSON.parse(node.attributes['stratos.decision.answers']).kind.choice, 'bug');
  assert.equal(JSON.parse(node.attributes['stratos.decision.questions']).kind.type, 'choice');
  const readable = await project.cli(['runs', 'show', result.json.data.executionId ?? runId]);
  assert.match(readable.stdout, /decision triage succeeded/);
  assert.match(readable.stdout, /kind: bug \(bug 0\.737, billing 0\.211, account 0\.053\)/);
  assert.match(readable.stdout, /urgent: 0\.800/);
  assert.match(readable.stdout, /severity: 1\.500/);
});

test('408, 429 and 503 are retried one second apart; the fourth attempt answers', async () => {
  const result = await run({ticket: 'fail-first:408,429,503 please', only: true});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const answers = JSON.parse(result.json.data.output.answers);
  assert.equal(answers.kind.choice, 'bug');
  const attempts = server
    .requestsTo('/api/chat')
    .filter((r) => r.body.messages[1].content.includes('fail-first:408,429,503'));
  assert.equal(attempts.length, 4);
  const shown = await project.cli(['runs', 'show', result.json.data.executionId, '--json']);
  const node = shown.json.data.tree[0].children.find((child: {kind: string}) => child.kind === 'decision');
  assert.equal(node.attributes['stratos.decision.attempts'], 4);
  // Each attempt is an event of the decision's span, with its outcome.
  const events = node.children.filter(
    (child: {kind: string; name: string}) => child.name === 'decision.attempt',
  );
  assert.deepEqual(
    events.map((event: {attributes: {outcome: string; status?: number}}) => [
      event.attributes.outcome,
      event.attributes.status,
    ]),
    [
      ['retryable', 408],
      ['retryable', 429],
      ['retryable', 503],
      ['ok', undefined],
    ],
  );
});

test("a connection refused on this machine is not retried: one attempt, the 'ollama serve' hint", async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const {port} = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const failed = await run({ticket: 'refused', only: true}, {OLLAMA_HOST: `http://127.0.0.1:${port}`});
  assert.equal(failed.exitCode, 1);
  assert.equal(failed.json.error.code, 'STRATOS_OLLAMA_UNREACHABLE', failed.stdout);
  assert.match(failed.json.error.message, /ECONNREFUSED.*ollama serve/);
  const runs = await project.cli(['runs', 'list', '--json']);
  const shown = await project.cli(['runs', 'show', runs.json.data.runs[0].runId, '--json']);
  const node = shown.json.data.tree[0].children.find((child: {kind: string}) => child.kind === 'decision');
  assert.equal(node.attributes['stratos.decision.attempts'], 1);
});

test('a 5xx on every attempt fails after four attempts; a 400 fails at once', async () => {
  const failed = await run({ticket: 'always-503', only: true});
  assert.equal(failed.exitCode, 1);
  assert.equal(failed.json.error.code, 'STRATOS_DECISION_REQUEST_FAILED', failed.stdout);
  assert.match(failed.json.error.message, /after 4 attempts/);
  assert.equal(
    server.requestsTo('/api/chat').filter((r) => r.body.messages[1].content.includes('always-503')).length,
    4,
  );
  const rejected = await run({ticket: 'status-400', only: true});
  assert.equal(rejected.json.error.code, 'STRATOS_DECISION_REQUEST_FAILED');
  assert.match(rejected.json.error.message, /not retried/);
  assert.equal(
    server.requestsTo('/api/chat').filter((r) => r.body.messages[1].content.includes('status-400')).length,
    1,
  );
});

test('a malformed answer and an answer without log-probabilities fail at once with their own codes', async () => {
  const malformed = await run({ticket: 'malformed', only: true});
  assert.equal(malformed.json.error.code, 'STRATOS_DECISION_ANSWER_INVALID', malformed.stdout);
  assert.equal(
    server.requestsTo('/api/chat').filter((r) => r.body.messages[1].content.includes('malformed')).length,
    1,
  );
  const bare = await run({ticket: 'no-logprobs', only: true});
  assert.equal(bare.json.error.code, 'STRATOS_DECISION_LOGPROBS_MISSING', bare.stdout);
  assert.match(bare.json.error.message, /log-probabilities/);
});

test('cancellation during a retry wait stops the decision: no second attempt', async () => {
  const before = server.requestsTo('/api/chat').length;
  const child = spawn(
    process.execPath,
    [
      cliPath,
      'run',
      'triage',
      '--input',
      JSON.stringify({ticket: 'always-503 cancel me', only: true}),
      '--json',
    ],
    {
      cwd: project.cwd,
      env: {...cleanEnv(), ...project.env, OLLAMA_HOST: server.url},
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const first = await Promise.race([
    server.answered('/api/chat', before + 1).then(() => true),
    exited.then(() => false),
  ]);
  assert.ok(first, 'the run ended before its first attempt');
  child.kill('SIGINT');
  const code = await exited;
  assert.notEqual(code, 0);
  const attempts = server
    .requestsTo('/api/chat')
    .filter((r) => r.body.messages[1].content.includes('cancel me'));
  assert.equal(attempts.length, 1, 'the retry wait was cancelled before a second attempt');
  const envelope = JSON.parse(stdout);
  assert.equal(envelope.ok, false);
  const executionId = envelope.error.details?.executionId;
  assert.equal(typeof executionId, 'string', stdout);
  const shown = await project.cli(['runs', 'show', executionId, '--json']);
  assert.equal(shown.exitCode, 0, shown.stdout);
  const node = shown.json.data.tree[0].children.find((c: {kind: string}) => c.kind === 'decision');
  assert.equal(node.status, 'cancelled', JSON.stringify(node));
  assert.equal(node.attributes['stratos.decision.attempts'], 1);
});

test('models: not installed, without completion or decision, a state over the advertised context (nothing sent)', async () => {
  const missing = await run({ticket: 'x', model: 'absent:7b', only: true});
  assert.equal(missing.json.error.code, 'STRATOS_OLLAMA_MODEL_NOT_INSTALLED', missing.stdout);
  assert.match(missing.json.error.message, /ollama pull absent:7b/);
  const embedder = await run({ticket: 'x', model: 'embedder', only: true});
  assert.equal(embedder.json.error.code, 'STRATOS_OLLAMA_MODEL_CAPABILITY_MISSING');
  const chatsBefore = server.requestsTo('/api/chat').length;
  const large = await run({ticket: 'long '.repeat(100), model: 'small-ctx', only: true});
  assert.equal(large.json.error.code, 'STRATOS_DECISION_STATE_TOO_LARGE', large.stdout);
  assert.equal(server.requestsTo('/api/chat').length, chatsBefore, 'nothing was sent');
});

test("a model with the decision capability is asked through Ollama's decision API; its values are kept as sent", async () => {
  const result = await run({ticket: 'Refund please', model: 'nimble', only: true});
  assert.equal(result.exitCode, 0, result.stdout);
  const answers = JSON.parse(result.json.data.output.answers);
  assert.deepEqual(answers.kind, {
    type: 'choice',
    choice: 'billing',
    probabilities: {bug: 0.0125, billing: 0.9781, account: 0.0093},
    confidence: 0.8906,
  });
  const request = server.requestsTo('/v1/systemone').at(-1)!.body;
  assert.deepEqual(request.questions.kind.criteria, {
    bug: 'Software errors',
    billing: 'Payments',
    account: null,
  });
  assert.deepEqual(request.state, {ticket: 'Refund please', tags: ['web', 'checkout']});
});

test('precedence: code settings, then overrides.decisions, then workflow.yaml; endpoints: baseUrl, OLLAMA_HOST', async () => {
  const overridden = await run({
    ticket: 'only-choice',
    only: true,
    overrides: {decisions: {triage: {model: 'override-model'}}},
  });
  assert.equal(overridden.exitCode, 0, overridden.stdout);
  assert.equal(server.requestsTo('/api/chat').at(-1)!.body.model, 'override-model');
  const code = await run({
    ticket: 'only-choice',
    only: true,
    model: 'code-model',
    overrides: {decisions: {triage: {model: 'override-model'}}},
  });
  assert.equal(code.exitCode, 0, code.stdout);
  assert.equal(server.requestsTo('/api/chat').at(-1)!.body.model, 'code-model');
  const baseUrl = await run(
    {ticket: 'only-choice', only: true, overrides: {decisions: {triage: {baseUrl: server.url}}}},
    {OLLAMA_HOST: 'http://127.0.0.1:9'},
  );
  assert.equal(baseUrl.exitCode, 0, baseUrl.stdout);
  const invalid = await run({ticket: 'only-choice', only: true}, {OLLAMA_HOST: 'ftp://127.0.0.1'});
  assert.equal(invalid.json.error.code, 'STRATOS_OLLAMA_ENDPOINT_INVALID', invalid.stdout);
  const badOverride = await run({
    ticket: 'x',
    only: true,
    overrides: {decisions: {triage: {provider: 'jev'}}},
  });
  assert.equal(badOverride.json.error.code, 'STRATOS_DECISION_PROVIDER_UNSUPPORTED', badOverride.stdout);
});

test("a parent binds a child's decision settings explicitly; its own overrides do not reach the child", async () => {
  const result = await project.cli(
    [
      'run',
      'dispatch',
      '--input',
      JSON.stringify({
        ticket: 'only-choice from a parent',
        overrides: {decisions: {triage: {model: 'code-model'}}},
      }),
      '--json',
    ],
    {env: {OLLAMA_HOST: server.url}},
  );
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const request = server
    .requestsTo('/api/chat')
    .filter((r) => r.body.messages[1].content.includes('from a parent'));
  assert.equal(request.length, 1);
  assert.equal(request[0]!.body.model, 'override-model');
});

test('the decision span is redacted like everything else: a credential in the state never reaches the run files', async () => {
  const canary = 'sk-canary-decision-7f3a9c';
  const result = await run({ticket: `only-choice token ${canary}`, only: true}, {DECISION_API_TOKEN: canary});
  assert.equal(result.exitCode, 0, result.stdout);
  const sent = server.requestsTo('/api/chat').at(-1)!.body.messages[1].content as string;
  assert.ok(sent.includes(canary), 'the model receives the state as given');
  const shown = await project.cli(['runs', 'show', result.json.data.executionId, '--json']);
  const {readFile} = await import('node:fs/promises');
  const {join} = await import('node:path');
  const events = await readFile(join(shown.json.data.run.directory, 'events.jsonl'), 'utf8');
  assert.match(events, /stratos\.decision\.state/);
  assert.ok(!events.includes(canary), 'the state attribute is redacted');
  assert.match(events, /\[REDACTED\]/);
});
