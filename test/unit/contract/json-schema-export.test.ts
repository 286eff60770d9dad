import assert from 'node:assert/strict';
import {test} from 'node:test';
import {z} from 'zod';
import {
  checkWorkflowContract,
  collectUnresolvedRefs,
  exportJsonSchemas,
  type JsonSchema,
} from '../../../src/contract/index.ts';
import {isStratosError} from '../../../src/errors/index.ts';
import {prReview, schemasOnly} from './pr-review.ts';

/** Reads a subschema by keys, following `$ref`s; a reference's siblings (its description) win over the target. */
function at(root: JsonSchema, ...keys: (string | number)[]): JsonSchema {
  const resolve = (node: unknown): unknown => {
    const {$ref: ref, ...siblings} = node as {$ref?: unknown};
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((parent, part) => (parent as Record<string, unknown>)[part], root);
    return {...(resolve(target) as object), ...siblings};
  };
  let current: unknown = root;
  for (const key of keys) {
    current = resolve((resolve(current) as Record<string | number, unknown>)[key]);
    assert.ok(typeof current === 'object' && current !== null, `no schema at ${keys.join('.')}`);
  }
  return current as JsonSchema;
}

test('the pr-review example exports draft 2020-12 schemas with descriptions, requirements and constraints', () => {
  const {input, output} = exportJsonSchemas(prReview);
  assert.deepEqual(input, {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      repo: {type: 'string', description: 'GitHub repository in owner/name format'},
      pr_number: {
        type: 'integer',
        exclusiveMinimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'Pull request number',
      },
    },
    required: ['repo', 'pr_number'],
    additionalProperties: false,
  });
  assert.equal(output.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.deepEqual(output.required, ['summary']);
  assert.deepEqual(at(output, 'properties', 'summary'), {
    type: 'string',
    description: 'Review request summary',
  });
});

test('descriptions appear at every depth, including beside nullable and optional fields', () => {
  const definition = schemasOnly(
    z.strictObject({
      options: z
        .strictObject({
          items: z
            .array(
              z.strictObject({
                id: z.number().describe('Item id'),
                note: z.string().describe('Note').nullable(),
              }),
            )
            .describe('Items'),
          labels: z
            .record(z.string(), z.strictObject({color: z.string().describe('Colour')}))
            .describe('Labels'),
        })
        .optional()
        .describe('Options'),
    }),
  );
  assert.deepEqual(checkWorkflowContract(definition), []);
  const {input} = exportJsonSchemas(definition);
  assert.equal(at(input, 'properties', 'options').description, 'Options');
  assert.equal(at(input, 'properties', 'options', 'properties', 'items').description, 'Items');
  const item = at(input, 'properties', 'options', 'properties', 'items', 'items');
  assert.equal(at(item, 'properties', 'id').description, 'Item id');
  // Zod puts the description inside the anyOf; the export also puts it on the property itself.
  assert.equal(at(item, 'properties', 'note').description, 'Note');
  const label = at(input, 'properties', 'options', 'properties', 'labels', 'additionalProperties');
  assert.equal(at(label, 'properties', 'color').description, 'Colour');
  assert.equal(label.additionalProperties, false);
});

test('defaults and enums are kept; input mode makes defaulted fields optional, output mode required', () => {
  const definition = schemasOnly(
    z.strictObject({
      mode: z.enum(['fast', 'careful']).default('careful').describe('Mode'),
      limit: z.number().int().min(1).max(50).default(10).describe('Limit'),
      name: z
        .string()
        .min(2)
        .max(40)
        .regex(/^[a-z]+$/)
        .describe('Name'),
    }),
    z.object({
      status: z.enum(['done', 'skipped']).describe('Status'),
      count: z.number().default(0).describe('Count'),
    }),
  );
  const {input, output} = exportJsonSchemas(definition);
  assert.deepEqual(at(input, 'properties', 'mode'), {
    type: 'string',
    enum: ['fast', 'careful'],
    default: 'careful',
    description: 'Mode',
  });
  assert.equal(at(input, 'properties', 'limit').default, 10);
  assert.equal(at(input, 'properties', 'limit').minimum, 1);
  assert.equal(at(input, 'properties', 'limit').maximum, 50);
  assert.deepEqual(
    [
      at(input, 'properties', 'name').minLength,
      at(input, 'properties', 'name').maxLength,
      at(input, 'properties', 'name').pattern,
    ],
    [2, 40, '^[a-z]+$'],
  );
  assert.deepEqual(input.required, ['name']);
  assert.deepEqual(at(output, 'properties', 'status').enum, ['done', 'skipped']);
  assert.deepEqual(output.required, ['status', 'count']);
});

test('recursive schemas export through $defs and every $ref resolves', () => {
  const Category = z.strictObject({
    name: z.string().describe('Category name'),
    get children() {
      return z.array(Category).describe('Subcategories');
    },
  });
  type TreeNode = {label: string; next?: TreeNode | undefined};
  const Tree: z.ZodType<TreeNode> = z.lazy(() =>
    z.strictObject({label: z.string().describe('Label'), next: Tree.optional().describe('Next node')}),
  );
  const definition = schemasOnly(
    z.strictObject({root: Category.describe('Root category'), tree: Tree.describe('Tree')}),
    z.object({tree: Tree.describe('Tree')}),
  );
  assert.deepEqual(checkWorkflowContract(definition), []);
  const {input, output} = exportJsonSchemas(definition);
  for (const schema of [input, output]) {
    assert.ok(schema.$defs !== undefined, 'recursive parts are in $defs');
    assert.deepEqual(collectUnresolvedRefs(schema), []);
  }
  const children = at(input, 'properties', 'root', 'properties', 'children');
  assert.equal(children.description, 'Subcategories');
  assert.equal(at(children, 'items', 'properties', 'name').description, 'Category name');
  assert.equal(at(input, 'properties', 'tree', 'properties', 'next').description, 'Next node');
});

test('a shared schema with a meta id is exported once in $defs', () => {
  const Person = z
    .strictObject({name: z.string().describe('Name')})
    .meta({id: 'Person', description: 'A person'});
  const {input} = exportJsonSchemas(schemasOnly(z.strictObject({author: Person, reviewer: Person})));
  assert.deepEqual(at(input, 'properties', 'author'), at(input, 'properties', 'reviewer'));
  assert.equal((input.$defs as Record<string, JsonSchema>).Person?.description, 'A person');
  assert.deepEqual(collectUnresolvedRefs(input), []);
});

test('exportJsonSchemas throws STRATOS_CONTRACT_UNREPRESENTABLE for what Zod cannot export', () => {
  assert.throws(
    () => exportJsonSchemas(schemasOnly(z.strictObject({when: z.date().describe('When')}))),
    (error: unknown) =>
      isStratosError(error) &&
      error.code === 'STRATOS_CONTRACT_UNREPRESENTABLE' &&
      /input schema/.test(error.message),
  );
});

test('collectUnresolvedRefs lists references that point outside the document, once each', () => {
  const schema = {
    $defs: {a: {type: 'string'}, 'x/y': {type: 'number'}, 'p%q': {$anchor: 'here'}},
    properties: {
      ok: {$ref: '#/$defs/a'},
      escaped: {$ref: '#/$defs/x~1y'},
      percent: {$ref: '#/$defs/p%25q'},
      root: {$ref: '#'},
      anchor: {$ref: '#here'},
      missing: {$ref: '#/$defs/b'},
      again: {$ref: '#/$defs/b'},
      external: {$ref: 'https://example.com/schema.json'},
      noAnchor: {$ref: '#nowhere'},
      // Data keywords hold values, not schemas.
      data: {const: {$ref: '#/nope'}, default: {$ref: '#/nope'}},
    },
  };
  assert.deepEqual(collectUnresolvedRefs(schema), [
    '#/$defs/b',
    'https://example.com/schema.json',
    '#nowhere',
  ]);
  assert.deepEqual(collectUnresolvedRefs(true), []);
});

test('checkWorkflowContract reports a $ref that does not resolve as STRATOS_CONTRACT_REF_UNRESOLVED', () => {
  const input = z.strictObject({x: z.string().meta({description: 'x', $ref: '#/$defs/missing'})});
  const diagnostics = checkWorkflowContract(schemasOnly(input));
  assert.deepEqual(
    diagnostics.map((d) => `${d.code} ${d.path}`),
    ['STRATOS_CONTRACT_REF_UNRESOLVED input'],
  );
  assert.match(diagnostics[0]?.message ?? '', /#\/\$defs\/missing/);
});
