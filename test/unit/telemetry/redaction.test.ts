import assert from 'node:assert/strict';
import {test} from 'node:test';
import {credentialEnvironmentValues} from '../../../src/telemetry/environment-secrets.ts';
import {isCredentialKey, Redactor, toRecordedJson} from '../../../src/telemetry/redaction.ts';

test('known secrets are replaced wherever they appear, longest first, with their bearer form', () => {
  const redactor = new Redactor();
  redactor.addSecret('Bearer tok-123456789');
  redactor.addSecret('abc'); // too short to replace inside text
  assert.equal(redactor.redactString('sent tok-123456789 and abc'), 'sent [REDACTED] and abc');
  assert.equal(redactor.redactString('Authorization: Bearer tok-123456789'), 'Authorization: [REDACTED]');
});

test('credential-named keys lose their text values; token counts stay', () => {
  const redactor = new Redactor();
  const value = redactor.redactValue({
    headers: {Authorization: 'x', accept: 'json'},
    'gen_ai.usage.input_tokens': 12,
    nested: [{api_key: 'k', client_secret: {a: 1}, note: 'fine'}],
  });
  assert.deepEqual(value, {
    headers: {Authorization: '[REDACTED]', accept: 'json'},
    'gen_ai.usage.input_tokens': 12,
    nested: [{api_key: '[REDACTED]', client_secret: '[REDACTED]', note: 'fine'}],
  });
  for (const key of ['GITHUB_TOKEN', 'x-api-key', 'password', 'set-cookie', 'OPENAI_API_KEY', 'clientSecret'])
    assert.ok(isCredentialKey(key), key);
  for (const key of ['PATH', 'tokenizer_name', 'mcp.tool', 'gen_ai.usage.output_tokens', 'author'])
    assert.ok(!isCredentialKey(key), key);
  assert.deepEqual(credentialEnvironmentValues({GITHUB_TOKEN: 'g', HOME: '/h', EMPTY_SECRET: ''}), ['g']);
});

test('a structured value recorded as JSON text loses its credential-named values before it becomes text', () => {
  // Inside an attribute's text the recorder no longer sees keys, so tool arguments and results are cleaned first.
  assert.equal(
    toRecordedJson({query: 'open issues', auth: {token: 'ghp_x'}, api_key: 'k', max_tokens: 5}),
    '{"query":"open issues","auth":"[REDACTED]","api_key":"[REDACTED]","max_tokens":5}',
  );
  assert.equal(toRecordedJson([{type: 'text', text: 'hi'}]), '[{"type":"text","text":"hi"}]');
  assert.equal(toRecordedJson('plain output\n'), 'plain output\n', 'text stays as it is');
  assert.equal(toRecordedJson(undefined), undefined);
  assert.equal(toRecordedJson(10n), '10', 'a value JSON cannot hold is its text');
});
