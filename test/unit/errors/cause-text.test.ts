// The words of a cause and which causes are worth printing: one rule for the CLI, the run records and the page.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {describeCauseText, McpToolError, visibleCauses} from '../../../src/errors/index.ts';

test('an MCP tool result reads as its text content, else its structured content as compact JSON', () => {
  const texts = {content: [{type: 'text', text: 'not found'}, {type: 'image'}, {type: 'text', text: 'x.ts'}]};
  assert.equal(describeCauseText(texts), 'not found x.ts');
  const structured = {content: [], structuredContent: {error: 'quota', left: 0}, isError: true};
  assert.equal(describeCauseText(structured), '{"error":"quota","left":0}');
  assert.equal(describeCauseText({status: 500}), '{"status":500}');
  assert.equal(describeCauseText(new Error('plain')), 'plain');
  assert.equal(describeCauseText('text'), 'text');
  const error = new McpToolError('s', 'lookup', structured);
  assert.equal(
    error.message,
    `The MCP tool 'lookup' of server 's' reported an error: {"error":"quota","left":0}`,
  );
});

test('a cause the message already says is left out, or kept as its code alone', () => {
  const causes = [
    {code: 'STRATOS_OLLAMA_UNREACHABLE', message: 'The server did not answer: fetch failed.'},
    {message: 'fetch failed'},
    {message: 'bad port'},
  ];
  assert.deepEqual(visibleCauses("Decision 'x' failed: The server did not answer: fetch failed.", causes), [
    {code: 'STRATOS_OLLAMA_UNREACHABLE', message: ''},
    {message: 'bad port'},
  ]);
  assert.deepEqual(visibleCauses("Workflow 'boom' failed: bad n 5", [{message: 'bad n 5'}]), []);
  assert.deepEqual(visibleCauses('child gave up', [{message: 'the disk is on fire'}]), [
    {message: 'the disk is on fire'},
  ]);
});
