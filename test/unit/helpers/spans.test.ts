// The shared span helpers of test/helpers/spans.ts: a file exporter's OTLP/JSON lines become the receiver's
// ReceivedSpan values, and only the spans whose resource names the run as root execution are kept.
import assert from 'node:assert/strict';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {collectSpans, readFileSpans} from '../../helpers/spans.ts';
import type {ReceivedSpan} from '../../servers/otlp/index.ts';

const folder = await mkdtemp(join(tmpdir(), 'stratos-spans-helper-'));
after(() => rm(folder, {recursive: true, force: true}));

/** One export request of one span whose resource names `root` as the root execution. */
function exportLine(root: string, name: string, spanId: string): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: {attributes: [{key: 'stratos.root_execution.id', value: {stringValue: root}}]},
        scopeSpans: [
          {
            scope: {name: 'stratos'},
            spans: [
              {traceId: '0'.repeat(31) + '1', spanId, name, startTimeUnixNano: '1', endTimeUnixNano: '2'},
            ],
          },
        ],
      },
    ],
  });
}

test('readFileSpans reads one run of a file exporter, normalised as the receiver does', async () => {
  const file = join(folder, 'traces.jsonl');
  await writeFile(
    file,
    [
      exportLine('run-a', 'workflow a', '00000000000000a1'),
      exportLine('run-b', 'workflow b', '00000000000000b1'),
    ]
      .join('\n')
      .concat('\n'),
  );
  const spans = await readFileSpans(file, 'run-a');
  assert.deepEqual(
    spans.map((s) => [s.name, s.spanId, s.parentSpanId, s.protocol]),
    [['workflow a', '00000000000000a1', undefined, 'http/json']],
  );
});

test('collectSpans returns the run once the receiver holds enough of its spans, or what it has at the limit', async () => {
  const span = (root: string, name: string) =>
    ({name, resource: {'stratos.root_execution.id': root}}) as unknown as ReceivedSpan;
  const held = [span('run-a', 'one'), span('run-b', 'other'), span('run-a', 'two')];
  const receiver = {spans: () => held};
  assert.deepEqual(
    (await collectSpans(receiver, 'run-a', 2)).map((s) => s.name),
    ['one', 'two'],
  );
  assert.deepEqual(
    (await collectSpans(receiver, 'run-a', 3, 0)).map((s) => s.name),
    ['one', 'two'],
  );
});
