import assert from 'node:assert/strict';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {fieldPathKeys, locateSchemaField} from '../../../src/builder/locate-schema-field.ts';

const source = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

const Item = z.strictObject({
  id: z.string(),
});

export default workflow({
  input: z.strictObject({
    repo: z.string().describe('Repository'),
    options: z.strictObject({items: z.array(Item).describe('Items'), 'odd.key': z.string()}).describe('Options'),
  }),
  output: z.object({summary: z.string()}),
  run: () => ({summary: ''}),
});
`;

test('field paths become object keys', () => {
  assert.deepEqual(fieldPathKeys('input.options.items[].id'), ['input', 'options', 'items', 'id']);
  assert.deepEqual(fieldPathKeys('input.labels.*'), ['input', 'labels']);
  assert.deepEqual(fieldPathKeys('input["odd.key"]'), ['input', 'odd.key']);
});

test('locates a field in the default export, through top-level constants, else falls back to the file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'stratos-locate-field-'));
  const file = join(dir, 'workflow.ts');
  try {
    await writeFile(file, source);
    assert.deepEqual(await locateSchemaField(file, 'input.repo'), {file, line: 10, column: 5});
    assert.deepEqual(await locateSchemaField(file, 'output.summary'), {file, line: 13, column: 21});
    assert.deepEqual(await locateSchemaField(file, 'input.options.items[].id'), {file, line: 5, column: 3});
    assert.deepEqual(await locateSchemaField(file, 'input.options["odd.key"]'), {file, line: 11, column: 70});
    assert.deepEqual(await locateSchemaField(file, 'input.missing'), {file});
    assert.deepEqual(await locateSchemaField(join(dir, 'absent.ts'), 'input.repo'), {
      file: join(dir, 'absent.ts'),
    });
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});
