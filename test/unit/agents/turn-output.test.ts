// The output step of a turn, without a harness: text agents get the text; agents with an output schema get the
// validated structured result, never an object parsed out of prose.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {z} from 'zod';
import {
  describeOutputMessages,
  readTurnOutput,
  toOutputJsonSchema,
  toScriptedResult,
} from '../../../src/agents/turn-output.ts';
import {StratosError} from '../../../src/errors/index.ts';

const subject = {agent: 'reviewer', harness: 'codex'};
const verdict = z.object({approve: z.boolean(), reasons: z.array(z.string())});

function hasCode(code: string) {
  return (error: unknown) => error instanceof StratosError && error.code === code;
}

test('a text agent gets the text, even when the harness also returned a structured value', async () => {
  assert.equal(await readTurnOutput({text: 'Looks good.'}, undefined, subject), 'Looks good.');
  assert.equal(
    await readTurnOutput(
      {text: '{"approve":true}', structured: {value: {approve: true}}},
      undefined,
      subject,
    ),
    '{"approve":true}',
  );
});

test('an agent with a schema gets the validated structured value, transforms applied', async () => {
  const output = await readTurnOutput(
    {text: 'done', structured: {value: {approve: true, reasons: ['tests pass']}}},
    verdict,
    subject,
  );
  assert.deepEqual(output, {approve: true, reasons: ['tests pass']});
  const upper = z.object({name: z.string().transform((name) => name.toUpperCase())});
  assert.deepEqual(await readTurnOutput({text: '', structured: {value: {name: 'ada'}}}, upper, subject), {
    name: 'ADA',
  });
});

test('prose is never turned into an object: no structured result is STRATOS_AGENT_OUTPUT_MISSING', async () => {
  // Valid JSON in the text is still text.
  await assert.rejects(
    readTurnOutput({text: '{"approve":true,"reasons":[]}'}, verdict, subject),
    (error: unknown) =>
      hasCode('STRATOS_AGENT_OUTPUT_MISSING')(error) &&
      (error as StratosError).message.includes("Agent 'reviewer' (codex)") &&
      (error as StratosError).details?.text === '{"approve":true,"reasons":[]}',
  );
  // Text that is not JSON at all fails the same way, with the text quoted.
  await assert.rejects(
    readTurnOutput({text: 'I approve: {approve: yes'}, verdict, subject),
    (error: unknown) =>
      hasCode('STRATOS_AGENT_OUTPUT_MISSING')(error) &&
      (error as StratosError).message.endsWith('Text: "I approve: {approve: yes"'),
  );
  // A long text is cut in the message but kept whole in the details.
  const long = 'x'.repeat(500);
  await assert.rejects(
    readTurnOutput({text: long}, verdict, subject),
    (error: unknown) =>
      (error as StratosError).message.endsWith(`${'x'.repeat(197)}...`) &&
      (error as StratosError).details?.text === long,
  );
});

test('a structured value that fails the schema is STRATOS_AGENT_OUTPUT_INVALID with its issues', async () => {
  await assert.rejects(
    readTurnOutput({text: '', structured: {value: {approve: 'yes', reasons: []}}}, verdict, subject),
    (error: unknown) => {
      if (!hasCode('STRATOS_AGENT_OUTPUT_INVALID')(error)) return false;
      const details = (error as StratosError).details as {value: unknown; issues: {path: unknown[]}[]};
      assert.deepEqual(details.value, {approve: 'yes', reasons: []});
      assert.deepEqual(
        details.issues.map((issue) => issue.path),
        [['approve']],
      );
      assert.match((error as StratosError).message, /does not match its output schema: .*approve/s);
      return true;
    },
  );
});

test('a scripted answer becomes a harness result: values are structured only for schema agents', () => {
  assert.deepEqual(toScriptedResult({text: 'hi'}, true), {text: 'hi'});
  assert.deepEqual(toScriptedResult({value: {approve: true}}, true), {
    text: '{"approve":true}',
    structured: {value: {approve: true}},
  });
  // A recorded structured value replays as its JSON text for a text agent.
  assert.deepEqual(toScriptedResult({value: {approve: true}}, false), {text: '{"approve":true}'});
  assert.deepEqual(toScriptedResult({value: 'plain'}, false), {text: 'plain'});
});

test('a scripted text given to a schema agent is still not parsed', async () => {
  await assert.rejects(
    readTurnOutput(toScriptedResult({text: '{"approve":true,"reasons":[]}'}, true), verdict, subject),
    hasCode('STRATOS_AGENT_OUTPUT_MISSING'),
  );
});

test('the recorded reply is the structured value as JSON when there is one', () => {
  assert.equal(
    describeOutputMessages({text: 'ok'}),
    JSON.stringify([{role: 'assistant', parts: [{type: 'text', content: 'ok'}]}]),
  );
  assert.equal(
    describeOutputMessages({text: 'ignored', structured: {value: {approve: true}}}),
    JSON.stringify([{role: 'assistant', parts: [{type: 'text', content: '{"approve":true}'}]}]),
  );
});

test('the output JSON Schema has no $schema dialect marker', () => {
  const schema = toOutputJsonSchema(verdict);
  assert.equal('$schema' in schema, false);
  assert.equal(schema.type, 'object');
  assert.deepEqual(schema.required, ['approve', 'reasons']);
});
