import assert from 'node:assert/strict';
import {test} from 'node:test';
import {isPathTarget} from '../../../src/discovery/index.ts';

test('workflow names are not paths', () => {
  for (const name of ['pr-review', 'a', 'release-notes-2', 'twin'])
    assert.equal(isPathTarget(name), false, name);
});

test('anything with a separator, a leading dot or a tilde is a folder path', () => {
  for (const path of [
    '/abs/path/pr-review',
    '.stratos/workflows/pr-review',
    './pr-review',
    '../elsewhere/pr-review',
    '.',
    '..',
    '~/.stratos/workflows/pr-review',
    'workflows/pr-review',
    'workflows\\pr-review',
  ]) {
    assert.equal(isPathTarget(path), true, path);
  }
});
