// How a span is called in runs show and on the page: a tool call with its key argument.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {labelSpan} from '../../../src/telemetry/artifacts/span-label.ts';

const call = (args: unknown) => ({'gen_ai.tool.call.arguments': JSON.stringify(args)});

test('a tool call is labelled by its preferred argument, else its first plain one', () => {
  assert.equal(
    labelSpan('tools/call read_text_file', call({tail: 5, path: 'src/x.ts'})),
    'tools/call read_text_file path=src/x.ts',
  );
  assert.equal(labelSpan('tools/call add', call({a: 1, b: 2})), 'tools/call add a=1');
  assert.equal(labelSpan('tools/call echo', call({text: 'two words'})), 'tools/call echo text="two words"');
  assert.equal(labelSpan('tools/call deep', call({options: {x: 1}})), 'tools/call deep');
  assert.equal(labelSpan('tools/call none', call({})), 'tools/call none');
  assert.equal(labelSpan('decision triage', {}), 'decision triage');
  assert.equal(labelSpan('tools/call bad', {'gen_ai.tool.call.arguments': '{not json'}), 'tools/call bad');
  const long = labelSpan('tools/call grep', call({pattern: 'x'.repeat(100)}));
  assert.equal(long, `tools/call grep pattern=${'x'.repeat(47)}…`);
});
