// The probability read-out over real token sequences: merged and split quotes, off-contract candidates, a
// sampled token outside the top candidates, and the errors when candidates are missing.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {computeOptionProbabilities, type GeneratedToken} from '../../../src/decision/answer-probabilities.ts';
import {findJsonValueOffsets} from '../../../src/decision/json-value-offsets.ts';

const ln = Math.log;

function offsetOf(tokens: GeneratedToken[], field: string): {text: string; offset: number} {
  const text = tokens.map((t) => t.token).join('');
  const offset = findJsonValueOffsets(text)?.get(field);
  assert.ok(offset !== undefined, `no offset for ${field} in ${text}`);
  return {text, offset};
}

test('a merged quote-and-letter token decides the option; off-contract candidates are left out', () => {
  const tokens: GeneratedToken[] = [
    {token: '{"kind":', logprob: 0, top_logprobs: [{token: '{"kind":', logprob: 0}]},
    {
      token: '"B',
      logprob: ln(0.6),
      top_logprobs: [
        {token: '"B', logprob: ln(0.6)},
        {token: '"A', logprob: ln(0.2)},
        {token: '"bug', logprob: ln(0.1)}, // not an allowed answer: outside the contract
        {token: '"C', logprob: ln(0.1)},
      ],
    },
    {token: '"}', logprob: 0, top_logprobs: [{token: '"}', logprob: 0}]},
  ];
  const {text, offset} = offsetOf(tokens, 'kind');
  const result = computeOptionProbabilities(tokens, text, offset, ['"A"', '"B"', '"C"']);
  assert.ok(result.ok);
  const [a, b, c] = result.probabilities;
  assert.ok(
    Math.abs(a! - 0.2 / 0.9) < 1e-12 && Math.abs(b! - 0.6 / 0.9) < 1e-12 && Math.abs(c! - 0.1 / 0.9) < 1e-12,
  );
  assert.ok(Math.abs(result.probabilities.reduce((s, p) => s + p, 0) - 1) < 1e-12);
});

test('a quote token of its own is walked through: mass of merged alternatives at the quote is kept', () => {
  // P("A as one token) = 0.1, P(") = 0.9 then P(A|") = 0.5, P(B|") = 0.5  =>  A: 0.1 + 0.45, B: 0.45
  const tokens: GeneratedToken[] = [
    {token: '{"kind":', logprob: 0, top_logprobs: []},
    {
      token: '"',
      logprob: ln(0.9),
      top_logprobs: [
        {token: '"', logprob: ln(0.9)},
        {token: '"A', logprob: ln(0.1)},
      ],
    },
    {
      token: 'B',
      logprob: ln(0.5),
      top_logprobs: [
        {token: 'B', logprob: ln(0.5)},
        {token: 'A', logprob: ln(0.5)},
      ],
    },
    {token: '"}', logprob: 0, top_logprobs: []},
  ];
  tokens[0]!.top_logprobs = [{token: '{"kind":', logprob: 0}];
  const {text, offset} = offsetOf(tokens, 'kind');
  const result = computeOptionProbabilities(tokens, text, offset, ['"A"', '"B"']);
  assert.ok(result.ok);
  assert.ok(Math.abs(result.probabilities[0]! - 0.55) < 1e-12, String(result.probabilities));
  assert.ok(Math.abs(result.probabilities[1]! - 0.45) < 1e-12);
});

test('a token that also holds text before the value, and a sampled token missing from the candidates', () => {
  const tokens: GeneratedToken[] = [
    {token: '{"ok', logprob: 0, top_logprobs: [{token: '{"ok', logprob: 0}]},
    {
      token: '":false',
      logprob: ln(0.05),
      top_logprobs: [
        {token: '":true', logprob: ln(0.9)},
        {token: '": ', logprob: ln(0.05)},
      ],
    },
    {token: '}', logprob: 0, top_logprobs: [{token: '}', logprob: 0}]},
  ];
  const {text, offset} = offsetOf(tokens, 'ok');
  const result = computeOptionProbabilities(tokens, text, offset, ['true', 'false']);
  assert.ok(result.ok);
  assert.ok(Math.abs(result.probabilities[0]! - 0.9 / 0.95) < 1e-12);
  assert.ok(Math.abs(result.probabilities[1]! - 0.05 / 0.95) < 1e-12);
});

test('missing candidates and candidates that select nothing are reported, not guessed', () => {
  const bare: GeneratedToken[] = [
    {token: '{"ok":', logprob: 0},
    {token: 'true', logprob: 0},
    {token: '}', logprob: 0},
  ];
  const text = bare.map((t) => t.token).join('');
  const missing = computeOptionProbabilities(bare, text, 6, ['true', 'false']);
  assert.deepEqual(missing.ok ? undefined : missing.problem.kind, 'no-candidates');
  const outside = computeOptionProbabilities(
    [
      {token: '{"ok":', logprob: 0, top_logprobs: []},
      {token: 'true', logprob: 0, top_logprobs: [{token: 'maybe', logprob: 0}]},
    ],
    '{"ok":true',
    6,
    ['"x"', '"y"'],
  );
  assert.equal(outside.ok, false);
});

test('value offsets follow escapes, nesting and whitespace', () => {
  const text = '{ "a\\"b" : [1, {"x": "}"}], "c":"C" }';
  const offsets = findJsonValueOffsets(text);
  assert.equal(text.slice(offsets!.get('c')!), '"C" }');
  assert.equal(text[offsets!.get('a"b')!], '[');
  assert.equal(findJsonValueOffsets('not json'), undefined);
});

test('whitespace before the value: a candidate that skips it still selects its option', () => {
  // The model wrote ` "` then `C`; at the ` "` position `"A` (no space) was also possible.
  const tokens: GeneratedToken[] = [
    {token: '{"q":', logprob: 0, top_logprobs: [{token: '{"q":', logprob: 0}]},
    {
      token: ' "',
      logprob: ln(0.8),
      top_logprobs: [
        {token: ' "', logprob: ln(0.8)},
        {token: '"A', logprob: ln(0.1)},
        {token: ' ', logprob: ln(0.1)},
      ],
    },
    {
      token: 'C',
      logprob: ln(0.5),
      top_logprobs: [
        {token: 'C', logprob: ln(0.5)},
        {token: 'B', logprob: ln(0.5)},
      ],
    },
    {token: '"}', logprob: 0, top_logprobs: [{token: '"}', logprob: 0}]},
  ];
  const {text, offset} = offsetOf(tokens, 'q');
  const result = computeOptionProbabilities(tokens, text, offset, ['"A"', '"B"', '"C"']);
  assert.ok(result.ok);
  // A: 0.1, B: 0.8 * 0.5, C: 0.8 * 0.5, out of 0.9 (the bare space leads anywhere and is left out)
  assert.deepEqual(
    result.probabilities.map((p) => Math.round(p * 1e9) / 1e9),
    [0.111111111, 0.444444444, 0.444444444],
  );
});
