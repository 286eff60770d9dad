import assert from 'node:assert/strict';
import {test} from 'node:test';
import {z} from 'zod';
import {
  formatValidationIssues,
  type ValidationIssue,
  validateWorkflowInput,
  validateWorkflowOutput,
} from '../../../src/contract/index.ts';
import {prReview, schemasOnly} from './pr-review.ts';

const nested = schemasOnly(
  z.strictObject({
    name: z.string().describe('Name'),
    nested: z.strictObject({flag: z.boolean().describe('Flag')}).describe('Nested'),
    options: z
      .strictObject({
        items: z.array(z.strictObject({id: z.number().describe('Id')})).describe('Items'),
      })
      .optional()
      .describe('Options'),
    limit: z.number().default(10).describe('Limit'),
    note: z.string().nullable().describe('Note'),
  }),
  z.object({summary: z.string().describe('Summary'), count: z.number().default(0).describe('Count')}),
);

async function inputIssues(value: unknown): Promise<ValidationIssue[]> {
  const result = await validateWorkflowInput(nested, value);
  assert.equal(result.ok, false, 'expected the input to be rejected');
  return result.ok ? [] : result.issues;
}

test('valid pr-review input passes and keeps its type', async () => {
  const result = await validateWorkflowInput(prReview, {repo: 'org/repo', pr_number: 42});
  assert.deepEqual(result, {ok: true, value: {repo: 'org/repo', pr_number: 42}});
  if (result.ok) {
    const repo: string = result.value.repo;
    assert.equal(repo, 'org/repo');
  }
});

test('pr-review constraints are enforced', async () => {
  const result = await validateWorkflowInput(prReview, {repo: 'org/repo', pr_number: -1});
  assert.equal(result.ok, false);
  assert.deepEqual(result.ok ? [] : result.issues.map((i) => i.path), ['pr_number']);
});

test('unknown fields are rejected with their path at every depth', async () => {
  const issues = await inputIssues({
    name: 'x',
    note: null,
    extra: 1,
    nested: {flag: true, surplus: 'a', other: 'b'},
    options: {items: [{id: 1}, {id: 2}, {id: 3, stray: true}]},
  });
  assert.deepEqual(issues, [
    {path: 'nested.surplus', message: "Unknown field 'surplus' in input.nested."},
    {path: 'nested.other', message: "Unknown field 'other' in input.nested."},
    {path: 'options.items[2].stray', message: "Unknown field 'stray' in input.options.items[2]."},
    {path: 'extra', message: "Unknown field 'extra' in input."},
  ]);
});

test('missing fields and wrong types are reported with dotted paths', async () => {
  const issues = await inputIssues({name: 5, options: {items: [{id: 1}, {id: 'two'}]}});
  assert.deepEqual(issues, [
    {path: 'name', message: 'Invalid input: expected string, received number'},
    {path: 'nested', message: "Missing required field 'nested' in input (expected object)."},
    {path: 'options.items[1].id', message: 'Invalid input: expected number, received string'},
    {path: 'note', message: "Missing required field 'note' in input (expected string)."},
  ]);
  assert.deepEqual(await inputIssues(null), [
    {path: '', message: 'Invalid input: expected object, received null'},
  ]);
});

test('null is accepted only where declared, and a default applies only to an omitted field', async () => {
  const base = {name: 'x', nested: {flag: false}, note: null};
  const ok = await validateWorkflowInput(nested, base);
  assert.deepEqual(ok, {ok: true, value: {...base, limit: 10}});

  assert.deepEqual(await inputIssues({...base, limit: null}), [
    {path: 'limit', message: 'Invalid input: expected number, received null'},
  ]);
  assert.deepEqual(await inputIssues({...base, options: null}), [
    {path: 'options', message: 'Invalid input: expected object, received null'},
  ]);
  const explicit = await validateWorkflowInput(nested, {...base, limit: 3});
  assert.equal(explicit.ok && explicit.value.limit, 3);
});

test('output validation applies output defaults and strips undeclared fields of a z.object', async () => {
  assert.deepEqual(await validateWorkflowOutput(nested, {summary: 'done', extra: true}), {
    ok: true,
    value: {summary: 'done', count: 0},
  });
  const bad = await validateWorkflowOutput(nested, {count: 'many'});
  assert.deepEqual(bad.ok ? [] : bad.issues, [
    {path: 'summary', message: "Missing required field 'summary' in output (expected string)."},
    {path: 'count', message: 'Invalid input: expected number, received string'},
  ]);
});

test('union failures name the closest alternative', async () => {
  const definition = schemasOnly(
    z.strictObject({
      target: z
        .union([
          z.strictObject({kind: z.literal('file').describe('k'), path: z.string().describe('p')}),
          z.strictObject({
            kind: z.literal('url').describe('k'),
            url: z.url().describe('u'),
            depth: z.number().describe('d'),
          }),
        ])
        .describe('Target'),
    }),
  );
  const result = await validateWorkflowInput(definition, {target: {kind: 'file', path: 7}});
  assert.equal(result.ok, false);
  const [issue] = result.ok ? [] : result.issues;
  assert.equal(issue?.path, 'target');
  assert.equal(
    issue?.message,
    'The value matches none of the 2 allowed alternatives; the closest fails with target.path: Invalid input: expected string, received number',
  );
});

test('lazy schemas validate through safeParseAsync', async () => {
  const Lazy = z.lazy(() => z.strictObject({v: z.string().describe('v')}));
  const result = await validateWorkflowInput(schemasOnly(z.strictObject({x: Lazy.describe('x')})), {
    x: {v: 'a'},
  });
  assert.deepEqual(result, {ok: true, value: {x: {v: 'a'}}});
});

test('formatValidationIssues prints one line per issue and caps long lists', () => {
  assert.equal(
    formatValidationIssues([
      {path: '', message: 'Invalid input: expected object, received null'},
      {path: 'nested.extra', message: "Unknown field 'extra' in input.nested."},
    ]),
    "- (root): Invalid input: expected object, received null\n- nested.extra: Unknown field 'extra' in input.nested.",
  );
  const many = Array.from({length: 25}, (_, i) => ({path: `items[${i}]`, message: 'Bad.'}));
  const lines = formatValidationIssues(many).split('\n');
  assert.equal(lines.length, 21);
  assert.equal(lines.at(-1), '- ... and 5 more issues');
  assert.equal(formatValidationIssues([]), '');
});
