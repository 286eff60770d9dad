/** A large server: 500 tools with realistic schemas generate a wrapper that compiles and dispatches each tool. */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {
  generateWrapperSource,
  type McpToolSnapshot,
  toolTypeNames,
} from '../../../../src/mcp/codegen/index.ts';
import {createWrapperProject, loadAgentStackTool} from './wrapper-project.ts';

const toolCount = 500;

function manyTools(): McpToolSnapshot[] {
  const agentstack = loadAgentStackTool();
  return Array.from({length: toolCount}, (_, index): McpToolSnapshot => {
    const name = ['repo-', 'ns.', 'prix€', 'item_'][index % 4]! + index;
    if (index % 2 === 0) return {...agentstack, name};
    return {
      name,
      description: `Tool number ${index}.`,
      inputSchema: {
        type: 'object',
        properties: {id: {type: 'integer'}, tags: {type: 'array', items: {$ref: '#/$defs/Tag'}}},
        required: ['id'],
        $defs: {Tag: {type: 'object', properties: {name: {type: 'string'}, parent: {$ref: '#/$defs/Tag'}}}},
      },
    };
  });
}

test('500 tools generate one method and one input type each, and the wrapper compiles', () => {
  const tools = manyTools();
  const source = generateWrapperSource({serverName: 'big', tools});
  for (const tool of tools) {
    const names = toolTypeNames(tool.name);
    assert.ok(source.includes(`export type ${names.input} = ${names.schema}.InputSchema.Input;`), tool.name);
    assert.equal(
      source.includes(`export type ${names.output} =`),
      tool.outputSchema !== undefined,
      tool.name,
    );
  }
  const snapshot = /JSON\.parse\('(.*)'\);$/m.exec(source);
  assert.ok(snapshot);
  assert.equal((JSON.parse(snapshot[1]!.replaceAll("\\'", "'")) as unknown[]).length, toolCount);

  const project = createWrapperProject();
  try {
    project.write('generated/mcp/big.ts', source);
    project.write(
      'consumer.ts',
      `import createBig from './generated/mcp/big.js';
export async function use(): Promise<void> {
  const big = await createBig();
  const first = await big['repo-0']({steps: [{id: 'a', action: 'auth.get_profile'}]});
  const success: boolean | undefined = first.structuredContent.success;
  const last = await big['item_499']({id: 1, tags: [{name: 't', parent: {name: 'p'}}]});
  const unknownContent: unknown = last.structuredContent;
  await big['prix€250']({steps: []});
  void [success, unknownContent];
}
`,
    );
    const result = project.compile(['generated/mcp/big.ts', 'consumer.ts']);
    assert.equal(result.exitCode, 0, result.output);
  } finally {
    project.dispose();
  }
});
