/**
 * Real compiles of generated wrappers with the project's TypeScript: consumers that use them correctly compile,
 * and each misuse (wrong argument, absent output field, removed tool) is a type error on exactly that line.
 */
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {generateWrapperSource, type McpToolSnapshot} from '../../../../src/mcp/codegen/index.ts';
import {kitchenSinkTools} from './sample-tools.ts';
import {createWrapperProject, loadAgentStackTool, type WrapperProject} from './wrapper-project.ts';

const wrappers = ['generated/mcp/agentstack.ts', 'generated/mcp/kitchen.ts', 'generated/mcp/kitchen-v2.ts'];

// The next generation of the kitchen server: `tree` is gone and `price$` now returns a string.
const kitchenV2Tools: McpToolSnapshot[] = kitchenSinkTools
  .filter((tool) => tool.name !== 'tree')
  .map((tool) => (tool.name === 'price$' ? {...tool, outputSchema: {type: 'string'}} : tool));

const goodConsumer = `import type {McpToolResult} from '@stratoscli/stratos/mcp';
import createAgentstack, {
  type AgentstackServer,
  type Tool_agentstack$2E$executeInput,
  type Tool_agentstack$2E$executeOutput,
} from './generated/mcp/agentstack.js';
import createKitchen, {
  type Tool_$1F680$launchOutput,
  type Tool_caf$E9$Output,
  type Tool_get$2D$meInput,
  type Tool_list$2E$itemsOutput,
  type Tool_price$24$Input,
  type Tool_price$24$Output,
  type Tool_shapesInput,
  type Tool_shapesOutput,
  type Tool_treeInput,
  type Tool_treeOutput,
} from './generated/mcp/kitchen.js';

export async function useAgentStack(): Promise<boolean | undefined> {
  const agentstack: AgentstackServer = await createAgentstack();
  const args: Tool_agentstack$2E$executeInput = {
    steps: [{id: 's1', action: 'auth.get_profile', params: {anything: 1}}],
    context: {project_id: 7, unknown_extra: true},
    options: {density: 'guided', envelope: 'compact', async: false},
  };
  const result = await agentstack['agentstack.execute'](args);
  const success: boolean | undefined = result.structuredContent.success;
  const output: Tool_agentstack$2E$executeOutput = result.structuredContent;
  const envelope: McpToolResult = result;
  const blocks: unknown[] = result.content;
  const direct = await agentstack['agentstack.execute']({steps: [{id: 'a', action: 'agents.work_next'}]});
  void [output, envelope, blocks, direct.structuredContent.trace_id];
  return success;
}

export async function useKitchen(): Promise<void> {
  const kitchen = await createKitchen();
  const noArgs: Tool_get$2D$meInput = {};
  const plain = await kitchen['get-me'](noArgs);
  const unknownContent: unknown = plain.structuredContent;
  await kitchen['get-me']();
  const priceArgs: Tool_price$24$Input = {};
  const price: Tool_price$24$Output = (await kitchen.price$(priceArgs)).structuredContent;
  const priceNumber: number = price;
  const nothing: null = (await kitchen['café']()).structuredContent;
  const nothingAlias: Tool_caf$E9$Output = nothing;
  const anything: Tool_$1F680$launchOutput = (await kitchen['🚀launch']()).structuredContent;
  const items: string[] = (await kitchen['list.items']()).structuredContent;
  const itemsAlias: Tool_list$2E$itemsOutput = items;
  const treeArgs: Tool_treeInput = {
    root: {children: [{children: [], label: null}, {children: [{children: []}], label: 'leaf'}]},
    self: {root: {children: []}},
    legacy: 3,
    'x-y': 'quoted',
    'with space': 1,
    '0lead': true,
    named: 'a def named Input is not the root',
  };
  const tree: Tool_treeOutput = (await kitchen.tree(treeArgs)).structuredContent;
  const nodeId: number = tree.node.id;
  const shapes: Tool_shapesInput = {
    mode: 'fast',
    level: 2,
    maybe: null,
    pair: ['a', 1],
    meta: {name: 'n', other: 2},
    headers: {'x-trace': 'abc'},
    either: {a: 'x'},
    both: {a: 'x', b: 1},
    cycle: 'anything',
    external: {whatever: true},
  };
  const shapesOutput: Tool_shapesOutput = (await kitchen.shapes(shapes)).structuredContent;
  await kitchen['__proto__']({x: 'y'});
  void [unknownContent, priceNumber, nothingAlias, anything, itemsAlias, nodeId, shapesOutput];
}
`;

const prelude = `import createAgentstack from './generated/mcp/agentstack.js';
import createKitchen from './generated/mcp/kitchen.js';
import createKitchenV2 from './generated/mcp/kitchen-v2.js';

export async function misuse(): Promise<unknown> {
  const agentstack = await createAgentstack();
  const kitchen = await createKitchen();
  const kitchenV2 = await createKitchenV2();
  const stackResult = await agentstack['agentstack.execute']({steps: []});
  const getMeResult = await kitchen['get-me']();
  const priceResult = await kitchen.price$();
  const nullResult = await kitchen['café']();
  const emptyResult = await kitchen['🚀launch']();
  const listResult = await kitchen['list.items']();
  const treeResult = await kitchen.tree({root: {children: []}});
  void [agentstack, kitchen, kitchenV2, stackResult, getMeResult, priceResult, nullResult, emptyResult];
  void [listResult, treeResult];
`;

/** One misuse per entry: the line must be the only place the compiler reports an error. */
const misuses: Record<string, string> = {
  'output field typed wrongly': 'const s: number = stackResult.structuredContent.success;',
  'output field absent from the schema': 'return stackResult.structuredContent.missing_field;',
  'argument of the wrong type': "await agentstack['agentstack.execute']({steps: 'all'});",
  'required argument property missing': "await agentstack['agentstack.execute']({});",
  'required arguments omitted': "await agentstack['agentstack.execute']();",
  'enum value outside the schema':
    "await agentstack['agentstack.execute']({steps: [], options: {density: 'lazy'}});",
  'nested step missing its action': "await agentstack['agentstack.execute']({steps: [{id: 'a'}]});",
  'no output schema keeps structuredContent unknown': 'const n: number = getMeResult.structuredContent;',
  'no output schema has no fields': 'return getMeResult.structuredContent.anything;',
  'primitive output keeps its type': 'const t: string = priceResult.structuredContent;',
  'null output keeps its type': 'const t: string = nullResult.structuredContent;',
  'empty output schema promises no shape': 'const t: string = emptyResult.structuredContent;',
  'array output keeps its element type': 'const t: number[] = listResult.structuredContent;',
  'recursive input is checked deeply': 'await kitchen.tree({root: {children: [{children: [], label: 3}]}});',
  'root recursion is checked': 'await kitchen.tree({root: {children: []}, self: {}});',
  'output definitions are separate from input definitions':
    'const l: string = treeResult.structuredContent.node.id;',
  'const literal': "await kitchen.shapes({mode: 'slow'});",
  'tuple length': "await kitchen.shapes({pair: ['a']});",
  'pattern properties value': "await kitchen.shapes({headers: {'x-a': 1}});",
  'allOf requires every part': "await kitchen.shapes({both: {a: 'x'}});",
  'quoted property type': "await kitchen.tree({root: {children: []}, 'x-y': 1});",
  'a tool named __proto__ keeps its arguments': "await kitchen['__proto__']({});",
  'a tool that does not exist': 'await kitchen.nope();',
  'a removed tool fails on rebuild': 'await kitchenV2.tree({root: {children: []}});',
  'a changed output schema fails on rebuild':
    'const p: number = (await kitchenV2.price$()).structuredContent;',
};

let project: WrapperProject;

before(() => {
  project = createWrapperProject();
  project.write(
    wrappers[0]!,
    generateWrapperSource({serverName: 'agentstack', tools: [loadAgentStackTool()]}),
  );
  project.write(wrappers[1]!, generateWrapperSource({serverName: 'kitchen', tools: kitchenSinkTools}));
  project.write(wrappers[2]!, generateWrapperSource({serverName: 'kitchen-v2', tools: kitchenV2Tools}));
  project.write('good.ts', goodConsumer);
  project.write('prelude-only.ts', `${prelude}  return undefined;\n}\n`);
});

after(() => project.dispose());

test('generated wrappers and a correct consumer compile under --strict', () => {
  const result = project.compile([...wrappers, 'good.ts', 'prelude-only.ts']);
  assert.equal(result.exitCode, 0, result.output);
});

test('generated wrappers also compile under the strictest project settings', () => {
  const strictest = ['--exactOptionalPropertyTypes', '--noUncheckedIndexedAccess', '--noUnusedLocals'];
  strictest.push(
    '--noUnusedParameters',
    '--verbatimModuleSyntax',
    '--isolatedModules',
    '--erasableSyntaxOnly',
  );
  const result = project.compile([...wrappers, 'good.ts'], strictest);
  assert.equal(result.exitCode, 0, result.output);
});

test('each misuse is a type error on its own line', () => {
  const misuseLine = prelude.split('\n').length;
  const files = Object.entries(misuses).map(([label, line], index) => {
    const file = `misuse-${index}.ts`;
    project.write(file, `${prelude}  ${line}\n  return undefined;\n}\n`);
    return {file, label};
  });
  const result = project.compile([...wrappers, ...files.map(({file}) => file)]);
  assert.notEqual(result.exitCode, 0);
  const unexpected = result.diagnostics.filter(
    (diagnostic) => !files.some(({file}) => file === diagnostic.file) || diagnostic.line !== misuseLine,
  );
  assert.deepEqual(unexpected, [], result.output);
  for (const {file, label} of files) {
    assert.ok(
      result.diagnostics.some((diagnostic) => diagnostic.file === file),
      `expected a type error for: ${label}`,
    );
  }
});

test('a server without tools compiles', () => {
  project.write('generated/mcp/empty.ts', generateWrapperSource({serverName: 'empty', tools: []}));
  project.write(
    'empty-consumer.ts',
    "import createEmpty, {type EmptyServer} from './generated/mcp/empty.js';\nexport const server: Promise<EmptyServer> = createEmpty();\n",
  );
  const result = project.compile(['generated/mcp/empty.ts', 'empty-consumer.ts'], ['--noUnusedLocals']);
  assert.equal(result.exitCode, 0, result.output);
});
