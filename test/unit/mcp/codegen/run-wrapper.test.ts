/** Runs generated wrappers with Node's own type stripping against a recording stub runtime. */
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {pathToFileURL} from 'node:url';
import {generateWrapperSource, type McpToolSnapshot} from '../../../../src/mcp/codegen/index.ts';
import {kitchenSinkTools} from './sample-tools.ts';
import {createWrapperProject, loadAgentStackTool, type WrapperProject} from './wrapper-project.ts';

type StubLogEntry =
  | {connect: string; tools: readonly McpToolSnapshot[]}
  | {call: string; args: Record<string, unknown> | undefined};

const stubGlobal = globalThis as {__stratosStubLog?: StubLogEntry[]};
let project: WrapperProject;

before(() => {
  project = createWrapperProject();
  project.write(
    'generated/mcp/kitchen.ts',
    generateWrapperSource({serverName: 'kitchen', tools: kitchenSinkTools}),
  );
  project.write(
    'generated/mcp/agentstack.ts',
    generateWrapperSource({serverName: 'agentstack', tools: [loadAgentStackTool()]}),
  );
});

after(() => project.dispose());

async function loadFactory(
  server: string,
): Promise<() => Promise<Record<string, (args?: unknown) => unknown>>> {
  const module = (await import(pathToFileURL(join(project.dir, `generated/mcp/${server}.ts`)).href)) as {
    default: () => Promise<Record<string, (args?: unknown) => unknown>>;
  };
  return module.default;
}

test('the factory connects with the server key and the embedded snapshot', async () => {
  stubGlobal.__stratosStubLog = [];
  const create = await loadFactory('agentstack');
  await create();
  const [connect] = stubGlobal.__stratosStubLog;
  assert.ok(connect !== undefined && 'connect' in connect);
  assert.equal(connect.connect, 'agentstack');
  const tool = loadAgentStackTool();
  assert.deepEqual(connect.tools, [
    {name: tool.name, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema},
  ]);
});

test('methods forward the original tool name and the arguments unchanged', async () => {
  stubGlobal.__stratosStubLog = [];
  const server = await (await loadFactory('kitchen'))();
  const result = await server['agentstack.execute']?.({steps: []});
  assert.equal(result, undefined, 'no method for a tool of another server');
  assert.deepEqual(await server['get-me']!(), {
    content: [{type: 'text', text: 'get-me'}],
    structuredContent: {called: 'get-me'},
  });
  await server['🚀launch']!({a: 1});
  // A tool named __proto__ must be an own method, not the object's prototype.
  const protoTool = Object.getOwnPropertyDescriptor(server, '__proto__')?.value as (args: unknown) => unknown;
  assert.equal(typeof protoTool, 'function');
  await protoTool({x: 'y'});
  assert.deepEqual(
    stubGlobal.__stratosStubLog.filter((entry) => 'call' in entry),
    [
      {call: 'get-me', args: undefined},
      {call: '🚀launch', args: {a: 1}},
      {call: '__proto__', args: {x: 'y'}},
    ],
  );
});

test('the embedded snapshot keeps every schema exactly, including __proto__ keys and boolean schemas', async () => {
  stubGlobal.__stratosStubLog = [];
  await (await loadFactory('kitchen'))();
  const [connect] = stubGlobal.__stratosStubLog;
  assert.ok(connect !== undefined && 'connect' in connect);
  const byName = new Map(connect.tools.map((tool) => [tool.name, tool]));
  assert.deepEqual([...byName.keys()], [...kitchenSinkTools.map((tool) => tool.name)].sort());
  const tree = byName.get('tree')!;
  const properties = tree.inputSchema.properties as Record<string, unknown>;
  assert.ok(Object.hasOwn(properties, '__proto__'));
  assert.deepEqual(tree.outputSchema, kitchenSinkTools.find((tool) => tool.name === 'tree')!.outputSchema);
  assert.deepEqual(byName.get('shapes')!.outputSchema, {}, 'outputSchema true is embedded as {}');
  assert.equal(byName.get('get-me')!.outputSchema, undefined);
  assert.equal(Object.hasOwn(byName.get('get-me')!, 'outputSchema'), false);
});
