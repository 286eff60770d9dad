// describeError: the message of whatever was thrown, as the sentences of Stratos's messages quote it.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {describeError} from '../../../src/internal/describe-error.ts';

test('an Error of any class gives its message', () => {
  assert.equal(describeError(new Error('disk full')), 'disk full');
  assert.equal(describeError(new TypeError('not a function')), 'not a function');
});

test('a thrown value that is no Error gives its string form', () => {
  assert.equal(describeError('plain text'), 'plain text');
  assert.equal(describeError(42), '42');
  assert.equal(describeError(undefined), 'undefined');
  assert.equal(describeError({message: 'not an Error'}), '[object Object]');
});
