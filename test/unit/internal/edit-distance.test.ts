import assert from 'node:assert/strict';
import {test} from 'node:test';
import {formatSuggestions, measureEditDistance, suggestClosest} from '../../../src/internal/edit-distance.ts';

test('edit distance counts insertions, deletions, substitutions and a swap of neighbours as one each', () => {
  assert.equal(measureEditDistance('run', 'run'), 0);
  assert.equal(measureEditDistance('rum', 'run'), 1);
  assert.equal(measureEditDistance('gret', 'greet'), 1);
  assert.equal(measureEditDistance('--inptu', '--input'), 1);
  assert.equal(measureEditDistance('', 'abc'), 3);
  assert.equal(measureEditDistance('kitten', 'sitting'), 3);
});

test('suggestions are the close candidates, closest first; far or unrelated words suggest nothing', () => {
  assert.deepEqual(suggestClosest('rum', ['list', 'run', 'runs', 'build']), ['run']);
  assert.deepEqual(suggestClosest('lisst', ['list', 'lists', 'build']), ['list', 'lists']);
  assert.deepEqual(suggestClosest('--inptu', ['--json', '--input', '--input-file']), ['--input']);
  assert.deepEqual(suggestClosest('deploy', ['list', 'run', 'build']), []);
  assert.deepEqual(suggestClosest('x', ['y']), [], 'a one-letter word is not "close" to every other letter');
  assert.deepEqual(suggestClosest('RUN', ['run']), ['run'], 'case is ignored');
});

test('suggestions read as one sentence', () => {
  assert.equal(formatSuggestions([]), '');
  assert.equal(formatSuggestions(['run']), " Did you mean 'run'?");
  assert.equal(formatSuggestions(['run', 'runs']), " Did you mean 'run' or 'runs'?");
});
