// Escaping of untrusted text and Stratos's own styles: every control character is escaped, none whitelisted, and
// styles are applied after escaping from marks untrusted text cannot forge.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {applyStyles, createPainter, escapeControls} from '../../../src/cli/output/style.ts';

const ESC = '\u001b';

test('every control character is escaped, also sequences that look like our own colors', () => {
  for (const code of [1, 2, 22, 31, 32, 33, 39]) {
    assert.equal(escapeControls(`${ESC}[${code}mx`), `\\x1b[${code}mx`);
  }
  assert.equal(escapeControls(`a${ESC}]0;t\u0007b\rc\u009bd`), 'a\\x1b]0;t\\x07b\\x0dc\\x9bd');
  assert.equal(escapeControls('right-to-left \u202e override'), 'right-to-left \\u202e override');
  assert.equal(escapeControls('tab\tand\nline feed stay'), 'tab\tand\nline feed stay');
});

test('styles are applied after escaping; untrusted text cannot forge them', () => {
  const paint = createPainter({isTTY: true}, {TERM: 'xterm-256color'});
  const untrusted = `${ESC}[31mevil \uE000forged:31\uE001`;
  const line = `${paint('running', 'green')} ${untrusted}`;
  assert.ok(!paint('running', 'green').includes(ESC), 'the painter itself writes no escape code');
  const shown = applyStyles(escapeControls(line));
  assert.equal(shown, `${ESC}[32mrunning${ESC}[39m \\x1b[31mevil \uE000forged:31\uE001`);
});

test('without a terminal, or with NO_COLOR or TERM=dumb, painting changes nothing', () => {
  for (const [stream, env] of [
    [{isTTY: false}, {}],
    [{isTTY: true}, {NO_COLOR: '1'}],
    [{isTTY: true}, {TERM: 'dumb'}],
  ] as const) {
    assert.equal(createPainter(stream, env)('plain', 'red'), 'plain');
  }
});
