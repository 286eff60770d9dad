import assert from 'node:assert/strict';
import {test} from 'node:test';
import {StratosError} from '../../../src/errors/index.ts';
import {adjectives, nouns} from '../../../src/worktrees/word-lists.ts';
import {
  branchOf,
  generateWorktreeName,
  randomWorktreeName,
  validateWorktreeName,
} from '../../../src/worktrees/worktree-names.ts';

test('the two word lists hold 256 distinct lowercase words each', () => {
  for (const list of [adjectives, nouns]) {
    assert.equal(list.length, 256);
    assert.equal(new Set(list).size, 256);
    for (const word of list) assert.match(word, /^[a-z]{2,10}$/);
  }
});

test('a random name is <adjective>-<noun> and a valid worktree name', () => {
  for (let i = 0; i < 50; i++) {
    const name = randomWorktreeName();
    const [adjective, noun] = name.split('-');
    assert.ok(adjectives.includes(adjective!), name);
    assert.ok(nouns.includes(noun!), name);
    validateWorktreeName(name, 'a');
  }
  assert.equal(
    randomWorktreeName(() => 0),
    `${adjectives[0]}-${nouns[0]}`,
  );
});

test('generation skips taken names and adds a suffix when the lists seem exhausted', async () => {
  const seen: string[] = [];
  const sequence = [0, 0, 0, 0, 1, 1];
  let index = 0;
  const random = () => sequence[index++ % sequence.length]!;
  const taken = new Set([`${adjectives[0]}-${nouns[0]}`]);
  const name = await generateWorktreeName(async (candidate) => {
    seen.push(candidate);
    return taken.has(candidate);
  }, random);
  assert.deepEqual(seen, [
    `${adjectives[0]}-${nouns[0]}`,
    `${adjectives[0]}-${nouns[0]}`,
    `${adjectives[1]}-${nouns[1]}`,
  ]);
  assert.equal(name, `${adjectives[1]}-${nouns[1]}`);
  const crowded = await generateWorktreeName(
    async (candidate) => !/-\d+$/.test(candidate),
    () => 7,
  );
  assert.equal(crowded, `${adjectives[7]}-${nouns[7]}-7`);
});

test('author names are validated as one folder and one branch component', () => {
  for (const good of ['fix-login', 'a', 'v2.1', 'snake_case']) validateWorktreeName(good, 'a');
  for (const bad of ['', 'Fix', 'a/b', '-x', 'x-', 'a..b', 'x.lock', 'a b', 'x'.repeat(65)]) {
    assert.throws(
      () => validateWorktreeName(bad, 'coder'),
      (error) => error instanceof StratosError && error.code === 'STRATOS_WORKTREE_NAME_INVALID',
      bad,
    );
  }
  assert.equal(branchOf('fix-login'), 'stratos/fix-login');
});
