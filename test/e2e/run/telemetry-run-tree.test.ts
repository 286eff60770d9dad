// The evidence of one real run through the CLI: a parent that calls a stdio MCP tool through its generated wrapper,
// a child workflow through its generated wrapper, and a second child that fails, whose error the parent catches.
// Asserts the exact span tree at an OTLP receiver (each workflow's preparation its first span), the child's own
// file destination, one shared events.jsonl for parent and children, and that the caught failure stays recorded
// as failed under the successful parent.
import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {type OtlpReceiver, renderSpanTree, startOtlpReceiver} from '../../servers/otlp/index.ts';

const serveScript = fileURLToPath(new URL('../../servers/mcp/serve.ts', import.meta.url));
let receiver: OtlpReceiver;
let project: TempProject;

before(async () => {
  receiver = await startOtlpReceiver();
  project = await createTempProject();
  const parentYaml = manifest(
    'parent',
    `mcp:
  servers:
    counter:
      type: stdio
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(serveScript)}, counter, --stdio]
telemetry:
  exporters:
    - type: otlp
      protocol: http/json
      endpoint: ${receiver.httpUrl}/v1/traces
`,
  );
  await project.writeWorkflow('parent', {
    'workflow.yaml': parentYaml,
    'workflow.ts': `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createChild from '../.generated/child.js';
import createFailing from '../.generated/failing.js';
import createCounter from './generated/mcp/counter.js';

export default workflow({
  input: z.strictObject({text: z.string().describe('Text')}),
  output: z.object({
    echo: z.string().describe('Echoed by the MCP tool'),
    child: z.string().describe('From the child'),
    caught: z.string().describe('The code of the failing child, caught'),
  }),
  async run({text}) {
    const counter = await createCounter();
    const echoed = await counter.echo({text});
    console.log('parent got', echoed.structuredContent.text);
    const {shout} = await createChild().execute({text});
    let caught = 'nothing';
    try {
      await createFailing().execute({});
    } catch (error) {
      caught = \`\${(error as {code: string}).code} \${(error as {details: {code: string}}).details.code}\`;
    }
    return {echo: echoed.structuredContent.text, child: shout, caught};
  },
});
`,
  });
  await project.writeWorkflow('child', {
    'workflow.yaml': manifest(
      'child',
      'telemetry:\n  exporters:\n    - type: file\n      path: child-traces.jsonl\n',
    ),
    'workflow.ts': `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
export default workflow({
  input: z.strictObject({text: z.string().describe('Text')}),
  output: z.object({shout: z.string().describe('Upper-cased text')}),
  run({text}) {
    console.log('child says', text);
    return {shout: text.toUpperCase()};
  },
});
`,
  });
  await project.writeWorkflow('failing', {
    'workflow.yaml': manifest('failing'),
    'workflow.ts': `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
export default workflow({
  input: z.strictObject({}),
  output: z.object({}),
  run() {
    throw new Error('deliberate child failure');
  },
});
`,
  });
});

after(async () => {
  await receiver.close();
  await project.remove();
});

test('one trace with the exact tree, the child destination, and one events.jsonl for the whole run', async () => {
  const result = await project.cli(['run', 'parent', '--input', '{"text":"hi"}', '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.deepEqual(result.json.data.output, {
    echo: 'hi',
    child: 'HI',
    caught: 'STRATOS_WORKFLOW_CHILD_FAILED STRATOS_RUN_FAILED',
  });

  const spans = await receiver.waitForSpans(8, 10_000);
  assert.deepEqual(renderSpanTree(spans), [
    'workflow parent',
    '  prepare parent',
    '  connect counter',
    '  tools/call echo',
    '  workflow child',
    '    prepare child',
    '  workflow failing',
    '    prepare failing',
  ]);
  // The first run builds the parent, and its children first; a child's own preparation then reuses its build.
  const prepare = (name: string) => spans.find((s) => s.name === `prepare ${name}`)!;
  assert.equal(prepare('parent').attributes['stratos.build.status'], 'built');
  assert.equal(prepare('parent').attributes['stratos.operation.kind'], 'workflow.prepare');
  assert.equal(prepare('child').attributes['stratos.build.status'], 'reused');

  // The caught failure: the child's span failed with its code, the parent that caught it succeeded.
  const failing = spans.find((s) => s.name === 'workflow failing')!;
  assert.equal(failing.attributes['stratos.outcome'], 'error');
  assert.equal(failing.attributes['error.type'], 'STRATOS_RUN_FAILED');
  assert.equal(failing.status.code, 2, 'span status ERROR');
  const parentSpan = spans.find((s) => s.name === 'workflow parent')!;
  assert.equal(parentSpan.attributes['stratos.outcome'], 'ok');
  assert.notEqual(parentSpan.status.code, 2);
  const shown = await project.cli(['runs', 'show', result.json.data.executionId, '--json']);
  assert.equal(shown.exitCode, 0, shown.stderr);
  assert.equal(shown.json.data.run.status, 'succeeded');
  const [root] = shown.json.data.tree;
  assert.equal(root.status, 'ok');
  const failedNode = root.children.find(
    (n: {kind: string; name: string}) => n.kind === 'workflow' && n.name === 'failing',
  );
  assert.equal(failedNode.status, 'error');
  assert.equal(failedNode.error.code, 'STRATOS_RUN_FAILED');
  assert.match(failedNode.error.message, /deliberate child failure/);
  assert.equal(new Set(spans.map((s) => s.traceId)).size, 1);
  const child = spans.find((s) => s.name === 'workflow child')!;
  const parent = spans.find((s) => s.name === 'workflow parent')!;
  assert.equal(parent.attributes['stratos.execution.id'], result.json.data.executionId);
  assert.notEqual(child.attributes['stratos.execution.id'], result.json.data.executionId);
  assert.equal(child.attributes['stratos.root_execution.id'], result.json.data.executionId);

  // The child's own destination holds its subtree only, with the same span identity.
  const fileText = await readFile(join(project.projectRoot, 'child', 'child-traces.jsonl'), 'utf8');
  const fileSpans = fileText
    .trim()
    .split('\n')
    .flatMap((line) => JSON.parse(line).resourceSpans)
    .flatMap((r: {scopeSpans: {spans: {name: string; spanId: string}[]}[]}) =>
      r.scopeSpans.flatMap((s) => s.spans),
    );
  assert.deepEqual(fileSpans.map((s: {name: string}) => s.name).sort(), ['prepare child', 'workflow child']);
  assert.equal(fileSpans.find((s: {name: string}) => s.name === 'workflow child')?.spanId, child.spanId);

  // Parent and child share the run folder's one events.jsonl, told apart by their execution ids.
  const events = (await readFile(join(result.json.data.runDirectory, 'events.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const consoleLines = events.filter((e) => e.type === 'console').map((e) => `${e.workflow}: ${e.message}`);
  assert.deepEqual(consoleLines.sort(), ['child: child says hi', 'parent: parent got hi']);
  assert.equal(new Set(events.map((e) => e.executionId)).size, 3);
  const failedEnd = events.find((e) => e.type === 'workflow.end' && e.workflow === 'failing');
  assert.equal(failedEnd.status, 'error');
  assert.equal(failedEnd.error.code, 'STRATOS_RUN_FAILED');
  const parentEnd = events.find((e) => e.type === 'workflow.end' && e.workflow === 'parent');
  assert.equal(parentEnd.status, 'ok');
  assert.ok(events.every((e) => e.rootExecutionId === result.json.data.executionId));
});
