// The step journal in a real PostgreSQL: committed appends, order, one entry per key, runs kept apart.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import pg from 'pg';
import type {JournalEntry} from '../../../src/context/step-journal.ts';
import {createPostgresJournal, ensureJournalTable} from '../../../src/engine/postgres-journal.ts';
import {type PostgresServer, startPostgres} from '../../servers/postgres/start-postgres.ts';

let postgres: PostgresServer;
let pool: pg.Pool;

before(async () => {
  postgres = await startPostgres();
  pool = new pg.Pool({connectionString: postgres.url});
  // A connection the server ends while idle (at shutdown) reports here instead of crashing the test process.
  pool.on('error', () => {});
  // Twice and at once: several workers start together.
  await Promise.all([ensureJournalTable(pool), ensureJournalTable(pool)]);
  await ensureJournalTable(pool);
});

after(async () => {
  await pool?.end();
  await postgres?.stop();
});

function entry(key: string, value: unknown): JournalEntry {
  return {
    key,
    kind: 'step',
    name: key,
    arguments: {},
    outcome: {value},
    completedAt: new Date().toISOString(),
  };
}

test('appended entries are read back in order, from another connection pool too', async () => {
  const journal = createPostgresJournal(pool, 'run-a');
  await journal.append(entry('0/step:a#0', 1));
  await journal.append(entry('0/step:b#0', {nested: ['x']}));
  await journal.append({...entry('0/step:c#0', undefined), outcome: {error: {code: 'E', message: 'failed'}}});
  const other = new pg.Pool({connectionString: postgres.url});
  try {
    const read = await createPostgresJournal(other, 'run-a').read();
    assert.deepEqual(
      read.map((e) => e.key),
      ['0/step:a#0', '0/step:b#0', '0/step:c#0'],
    );
    assert.deepEqual(read[1]!.outcome, {value: {nested: ['x']}});
    assert.deepEqual(read[2]!.outcome, {error: {code: 'E', message: 'failed'}});
  } finally {
    await other.end();
  }
});

test('a key appended twice keeps its first entry; runs do not see each other', async () => {
  const journal = createPostgresJournal(pool, 'run-b');
  await journal.append(entry('0/agent:a#0', 'first'));
  await journal.append(entry('0/agent:a#0', 'second'));
  assert.deepEqual(
    (await journal.read()).map((e) => e.outcome.value),
    ['first'],
  );
  assert.deepEqual(await createPostgresJournal(pool, 'run-c').read(), []);
});

test('parallel appends of one run are all kept', async () => {
  const journal = createPostgresJournal(pool, 'run-d');
  await Promise.all(Array.from({length: 50}, (_, n) => journal.append(entry(`0/step:s${n}#0`, n))));
  const read = await journal.read();
  assert.equal(read.length, 50);
  assert.deepEqual(new Set(read.map((e) => e.outcome.value)), new Set(Array.from({length: 50}, (_, n) => n)));
});

test('a database that cannot be reached is a coded error without the password', async () => {
  const closed = new pg.Pool({connectionString: postgres.url.replace(`:${postgres.port}/`, ':1/')});
  try {
    await assert.rejects(createPostgresJournal(closed, 'run-e').read(), (error: Error & {code?: string}) => {
      assert.equal(error.code, 'STRATOS_ENGINE_DATABASE_FAILED');
      assert.ok(!error.message.includes(postgres.password));
      return true;
    });
  } finally {
    await closed.end();
  }
});
