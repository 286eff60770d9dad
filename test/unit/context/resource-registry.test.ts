import assert from 'node:assert/strict';
import {test} from 'node:test';
import {ResourceRegistry} from '../../../src/context/index.ts';
import {isStratosError} from '../../../src/errors/index.ts';

test('registering after the invocation ended is a coded error, and cleanup runs in reverse order', async () => {
  const registry = new ResourceRegistry();
  const closed: string[] = [];
  registry.register({label: 'mcp:a', close: () => void closed.push('a')});
  registry.register({label: 'agent:b', close: () => void closed.push('b')});
  assert.deepEqual(await registry.closeAll(), []);
  assert.deepEqual(closed, ['b', 'a']);
  assert.throws(
    () => registry.register({label: 'agent:late', close: () => {}}),
    (error) =>
      isStratosError(error) &&
      error.code === 'STRATOS_RUNTIME_CONTEXT_CLOSED' &&
      /agent:late/.test(error.message),
  );
});
