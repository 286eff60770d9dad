// Recording a case from run artifacts: redacted, truncated and unrecorded values stay visible and are listed as
// needing a value; structured agent replies become `output`, text replies `reply`.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {NEEDS_VALUE, recordTestCase} from '../../../src/cases/record-case.ts';
import type {RunTreeNode} from '../../../src/telemetry/artifacts/run-store.ts';
import type {RunRecord} from '../../../src/telemetry/index.ts';

const record = (input: RunRecord['input']): RunRecord => ({
  schemaVersion: 1,
  runId: '20261201T000000000Z-abc',
  executionId: 'abc',
  traceId: 't',
  workflow: {name: 'w', version: '1.0.0', directory: '/w'},
  invocationDirectory: '/',
  status: 'succeeded',
  startedAt: '',
  pid: 1,
  stratosVersion: '0',
  input,
  output: {type: 'object', preview: '{"ok":true}', truncated: false},
});

const node = (kind: string, attributes: Record<string, unknown>, workflow = 'w'): RunTreeNode => ({
  kind,
  name: kind,
  spanId: kind,
  executionId: 'abc',
  workflow,
  consoleMessages: 0,
  attributes,
  children: [],
});

const message = (content: string) => JSON.stringify([{role: 'x', parts: [{type: 'text', content}]}]);

test('agent replies and MCP results become scripts; redacted and missing values are listed', () => {
  const tree = [
    node('agent.execute', {
      'stratos.agent.name': 'writer',
      'gen_ai.input.messages': message('Write it'),
      'gen_ai.output.messages': message('{"title":"T"}'),
    }),
    node(
      'agent.execute',
      {
        'stratos.agent.name': 'helper',
        'gen_ai.input.messages': message('Say hi'),
        'gen_ai.output.messages': message('hi'),
      },
      'child',
    ),
    node('mcp.call', {
      'mcp.server': 'gh',
      'mcp.tool': 'get_me',
      'gen_ai.tool.call.arguments': '{"token":"[REDACTED]"}',
      'gen_ai.tool.call.result': '{"content":[]}',
    }),
    node('mcp.call', {'mcp.server': 'gh', 'mcp.tool': 'fail', 'gen_ai.tool.call.arguments': '{}'}),
  ];
  const {testCase, needsValue} = recordTestCase(
    record({type: 'object', preview: '{"key":"[REDACTED]"}', truncated: false}),
    tree,
  );
  assert.deepEqual(testCase.input, {key: '[REDACTED]'});
  assert.deepEqual(testCase.output, {ok: true});
  assert.deepEqual(testCase.agents, [
    {agent: 'writer', prompt: 'Write it', output: {title: 'T'}},
    {agent: 'helper', workflow: 'child', prompt: 'Say hi', reply: 'hi'},
  ]);
  const mcp = testCase.mcp as Record<string, {tool: string; result: unknown}[]>;
  assert.equal(mcp.gh?.length, 2);
  assert.deepEqual(mcp.gh?.[1]?.result, {content: [{type: 'text', text: NEEDS_VALUE}]});
  assert.equal(needsValue.length, 3);
  assert.match(needsValue[0]!, /^input\.key: the run recorded it as \[REDACTED\]/);
  assert.match(needsValue[1]!, /^mcp\.gh\[0\] \(tool 'get_me'\) arguments\.token: .*REDACTED/);
  assert.match(needsValue[2]!, /^mcp\.gh\[1\] \(tool 'fail'\): the run recorded no result/);
});

test('a truncated input is a value to write, never a guess', () => {
  const {testCase, needsValue} = recordTestCase(
    record({type: 'object', preview: '{"a":"xx', truncated: true}),
    [],
  );
  assert.equal(testCase.input, NEEDS_VALUE);
  assert.match(needsValue[0]!, /^input: run\.json keeps only the first 8 characters/);
});

test("a decision's answers become a script in the case's written shape; failed decisions need their answers", () => {
  const answers = {
    queue: {type: 'choice', choice: 'bug', probabilities: {bug: 0.9, billing: 0.1}},
    severity: {type: 'score', score: 1.5, probabilities: [0.1, 0.3, 0.6], confidence: 0.7},
    urgent: {type: 'noul', noul: 0.8},
  };
  const tree = [
    node('decision', {
      'stratos.decision.name': 'triage',
      'stratos.decision.question_names': ['queue', 'severity', 'urgent'],
      'stratos.decision.answers': JSON.stringify(answers),
    }),
    node(
      'decision',
      {'stratos.decision.name': 'route', 'stratos.decision.question_names': ['team']},
      'child',
    ),
  ];
  const {testCase, needsValue} = recordTestCase(
    record({type: 'object', preview: '{}', truncated: false}),
    tree,
  );
  assert.deepEqual(testCase.decisions, [
    {
      decision: 'triage',
      answers: {
        queue: {choice: 'bug', probabilities: {bug: 0.9, billing: 0.1}},
        severity: {score: 1.5, probabilities: [0.1, 0.3, 0.6], confidence: 0.7},
        urgent: {noul: 0.8},
      },
    },
    {decision: 'route', workflow: 'child', answers: {team: NEEDS_VALUE}},
  ]);
  assert.equal(needsValue.length, 1);
  assert.match(needsValue[0]!, /^decisions\[1\] \(decision 'route'\): the run recorded no answers/);
});

test('the workflow folder, the invocation directory and home become placeholders, whole paths only', () => {
  const cwd = '/srv/alice/project';
  const directory = `${cwd}/.stratos/workflows/w`;
  const home = '/srv/alice';
  const prompt = `${'Read '.repeat(39)}xx${cwd}/src/index.ts and summarize it.`;
  const tree = [
    node('agent.execute', {
      'stratos.agent.name': 'reader',
      'gen_ai.input.messages': message(prompt),
      'gen_ai.output.messages': message(`Read ${cwd}/src/index.ts`),
    }),
    node('mcp.call', {
      'mcp.server': 'files',
      'mcp.tool': 'list',
      'gen_ai.tool.call.arguments': JSON.stringify({path: `${directory}/prompts`}),
      'gen_ai.tool.call.result': JSON.stringify({content: [], structuredContent: {[`${home}/.notes`]: 1}}),
    }),
  ];
  const run = {
    ...record({
      type: 'object',
      preview: JSON.stringify({file: `${cwd}/a.txt`, other: `${cwd}2/b.txt`, root: '/'}),
      truncated: false,
    }),
    workflow: {name: 'w', version: '1.0.0', directory},
    invocationDirectory: cwd,
  };
  const {testCase} = recordTestCase(run, tree, home);
  assert.deepEqual(testCase.input, {file: '{cwd}/a.txt', other: '{home}/project2/b.txt', root: '/'});
  const [agent] = testCase.agents as {prompt: string; reply: string}[];
  // The path sat across the 200-character cut: it is replaced first, and a placeholder is never cut in two.
  assert.equal(agent?.prompt, `${'Read '.repeat(39)}xx`);
  assert.equal(agent?.reply, 'Read {cwd}/src/index.ts');
  const [call] = (testCase.mcp as Record<string, {arguments: unknown; result: unknown}[]>).files!;
  assert.deepEqual(call?.arguments, {path: '{workflow}/prompts'});
  assert.deepEqual(call?.result, {content: [], structuredContent: {'{home}/.notes': 1}});
  assert.ok(!JSON.stringify(testCase).includes(home));
});
