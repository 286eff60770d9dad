import assert from 'node:assert/strict';
import {test} from 'node:test';
import {resolveAgentSettings} from '../../../src/agents/settings.ts';
import {StratosError} from '../../../src/errors/index.ts';

function resolve(...layers: (Record<string, unknown> | undefined)[]) {
  return resolveAgentSettings({
    name: 'coder',
    layers: layers.map((settings, index) => ({source: `layer ${index}`, settings, codeFields: index === 0})),
    mcpServers: [],
    resolvePath: (path) => `/work/${path}`,
    invocationDirectory: '/work',
  }).worktree;
}

test('worktree: true, a name, or {name, cleanup} normalize to one shape', () => {
  assert.equal(resolve(undefined), undefined);
  assert.equal(resolve({worktree: false}), undefined);
  assert.deepEqual(resolve({worktree: true}), {cleanup: true});
  assert.deepEqual(resolve({worktree: 'fix-login'}), {name: 'fix-login', cleanup: true});
  assert.deepEqual(resolve({worktree: {cleanup: false}}), {cleanup: false});
  assert.deepEqual(resolve({worktree: {name: 'keep', cleanup: false}}), {name: 'keep', cleanup: false});
});

test('a higher layer replaces the whole worktree setting', () => {
  assert.deepEqual(resolve({worktree: 'mine'}, {worktree: {name: 'theirs', cleanup: false}}), {
    name: 'mine',
    cleanup: true,
  });
  assert.equal(resolve({worktree: false}, {worktree: true}), undefined);
});

test('other shapes are configuration errors naming the field', () => {
  for (const bad of [1, '', [], {name: 3}, {cleanup: 'no'}, {branch: 'x'}]) {
    assert.throws(
      () => resolve(undefined, {worktree: bad}),
      (error) =>
        error instanceof StratosError &&
        error.code === 'STRATOS_AGENT_CONFIG_INVALID' &&
        /'worktree'/.test(error.message),
      JSON.stringify(bad),
    );
  }
});
