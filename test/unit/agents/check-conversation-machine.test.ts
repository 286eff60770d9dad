import assert from 'node:assert/strict';
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {describeJournaledTurn, readJournaledConversation} from '../../../src/agents/agent-resume.ts';
import {checkConversationMachine} from '../../../src/agents/check-conversation-machine.ts';
import {isStratosError} from '../../../src/errors/index.ts';
import {readMachineIdentity} from '../../../src/internal/machine-identity.ts';

const a = {host: 'build-1', id: 'aaaaaaaaaaaaaaaaaaaa'};
const b = {host: 'build-2', id: 'bbbbbbbbbbbbbbbbbbbb'};

const journaled = (conversation: string | undefined, worktree?: string) =>
  readJournaledConversation({
    key: 'w/agent:main#0',
    kind: 'agent',
    name: 'main',
    arguments: {},
    outcome: {value: 'x'},
    completedAt: '',
    details: describeJournaledTurn('TURN 1', 'codex', conversation, worktree),
    machine: a,
  });

test('a journaled agent turn is read back with its worktree and machine', () => {
  assert.deepEqual(journaled('thread-1', '/w/tree'), {
    harness: 'codex',
    id: 'thread-1',
    worktree: '/w/tree',
    machine: a,
  });
});

test('turns on the same machine, without a recorded machine or with nothing to continue pass', () => {
  checkConversationMachine('main', journaled('thread-1', '/w/tree'), a);
  checkConversationMachine('main', journaled('thread-1'), undefined);
  checkConversationMachine('main', {harness: 'codex', id: 'thread-1'}, b);
  checkConversationMachine('main', journaled(undefined), b);
  checkConversationMachine('main', undefined, b);
});

test('a conversation or a worktree on another machine is refused, naming both machines', () => {
  const refused = (from: ReturnType<typeof journaled>) => {
    try {
      checkConversationMachine('main', from, b);
    } catch (error) {
      assert.ok(isStratosError(error));
      assert.equal(error.code, 'STRATOS_QUEUE_SESSION_ELSEWHERE');
      return error.message;
    }
    assert.fail('not refused');
  };
  assert.match(refused(journaled('thread-1')), /its codex conversation \(thread-1\) is on machine build-1/);
  assert.match(refused(journaled(undefined, '/w/tree')), /its worktree \(\/w\/tree\) is on machine build-1/);
  const both = refused(journaled('thread-1', '/w/tree'));
  assert.match(both, /conversation \(thread-1\) and its worktree \(\/w\/tree\) are on machine build-1/);
  assert.match(
    both,
    /now on machine build-2 .*Nothing was sent\. Enqueue the workflow anew; .* again on build-1, under the same id/,
  );
});

test('the machine id is created once in the Stratos home and read back; another home is another machine', async () => {
  const home = await mkdtemp(join(tmpdir(), 'stratos-machine-'));
  const other = await mkdtemp(join(tmpdir(), 'stratos-machine-'));
  try {
    const first = readMachineIdentity(home);
    assert.match(first.id, /^[0-9a-f]{32}$/);
    assert.deepEqual(readMachineIdentity(home), first);
    assert.equal((await readFile(join(home, 'machine-id'), 'utf8')).trim(), first.id);
    assert.notEqual(readMachineIdentity(other).id, first.id);
    await writeFile(join(other, 'machine-id'), '');
    assert.match(readMachineIdentity(other).id, /^[0-9a-f]{32}$/, 'an emptied id file gets a new id');
  } finally {
    await rm(home, {recursive: true, force: true});
    await rm(other, {recursive: true, force: true});
  }
});
