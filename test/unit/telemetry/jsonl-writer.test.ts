import assert from 'node:assert/strict';
import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {AppendWriter} from '../../../src/telemetry/artifacts/jsonl-writer.ts';

test('concurrent appends keep whole lines in order; a failed open is reported once', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'stratos-jsonl-'));
  try {
    const writer = new AppendWriter(join(dir, 'events.jsonl'), () => assert.fail('no error expected'));
    const lines = Array.from(
      {length: 2000},
      (_, i) => `${JSON.stringify({i, pad: 'p'.repeat(i % 7 === 0 ? 70_000 : 10)})}\n`,
    );
    await Promise.all(lines.map(async (line) => writer.append(line)));
    await writer.close();
    const read = (await readFile(join(dir, 'events.jsonl'), 'utf8')).trimEnd().split('\n');
    assert.deepEqual(
      read.map((l) => JSON.parse(l).i),
      lines.map((_, i) => i),
    );

    const errors: unknown[] = [];
    const broken = new AppendWriter(join(dir, 'missing', 'x.jsonl'), (error) => errors.push(error));
    broken.append('a\n');
    broken.append('b\n');
    await broken.flush();
    broken.append('c\n');
    await broken.flush();
    assert.equal(errors.length, 1);
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});
