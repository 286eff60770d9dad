import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {test} from 'node:test';
import {isStratosError} from '../../../../src/errors/index.ts';
import {generateWrapperSource} from '../../../../src/mcp/codegen/index.ts';
import {smallServerTools} from './sample-tools.ts';

// .txt rather than .ts: the golden file is compared byte for byte, so no formatter or compiler may touch it.
const goldenPath = join(import.meta.dirname, '../../../fixtures/mcp-codegen/small-server.golden.txt');

test('the wrapper of a small server matches the golden file (UPDATE_GOLDEN=1 rewrites it)', () => {
  const source = generateWrapperSource({serverName: 'small-server', tools: smallServerTools});
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(goldenPath, source);
  assert.equal(source, readFileSync(goldenPath, 'utf8'));
});

test('the output does not depend on discovery order', () => {
  const forward = generateWrapperSource({serverName: 'small-server', tools: smallServerTools});
  const reversed = generateWrapperSource({
    serverName: 'small-server',
    tools: [...smallServerTools].reverse(),
  });
  assert.equal(reversed, forward);
});

test('two tools with one name fail generation', () => {
  const tool = smallServerTools[0]!;
  assert.throws(
    () => generateWrapperSource({serverName: 'small-server', tools: [tool, {...tool}]}),
    (error: unknown) => isStratosError(error) && error.code === 'STRATOS_MCP_TOOL_NAME_DUPLICATE',
  );
});
