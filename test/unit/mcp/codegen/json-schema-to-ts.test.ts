import assert from 'node:assert/strict';
import {test} from 'node:test';
import {convertSchemaDeclarations} from '../../../../src/mcp/codegen/index.ts';

/** The type text of the root alias, for schemas without named types. */
function rootType(schema: Parameters<typeof convertSchemaDeclarations>[0]): string {
  const text = convertSchemaDeclarations(schema, {rootName: 'T'});
  const match = /^type T = ([\s\S]*?);\n(?:type |\/\*\*|$)/m.exec(text.replace(/^\/\*\*.*\*\/\n/, ''));
  assert.ok(match, text);
  return match[1]!;
}

test('primitives, integer and null', () => {
  assert.equal(rootType({type: 'string', format: 'date-time'}), 'string');
  assert.equal(rootType({type: 'integer'}), 'number');
  assert.equal(rootType({type: 'number'}), 'number');
  assert.equal(rootType({type: 'boolean'}), 'boolean');
  assert.equal(rootType({type: 'null'}), 'null');
});

test('empty, true and false schemas', () => {
  assert.equal(rootType({}), 'unknown');
  assert.equal(rootType(true), 'unknown');
  assert.equal(rootType(false), 'never');
  assert.equal(rootType({description: 'only words'}), 'unknown');
  assert.equal(rootType({not: {type: 'string'}}), 'unknown');
});

test('type arrays and nullable', () => {
  assert.equal(rootType({type: ['string', 'null']}), 'string | null');
  assert.equal(rootType({type: ['integer', 'number']}), 'number');
  assert.equal(rootType({type: 'string', nullable: true}), 'string | null');
});

test('enum and const become literal unions, with strings quoted safely', () => {
  assert.equal(rootType({enum: ['a', "it's", 1, true, null]}), "'a' | 'it\\'s' | 1 | true | null");
  assert.equal(rootType({const: 'x"y'}), `'x"y'`);
  assert.equal(rootType({type: 'string', enum: []}), 'never');
  assert.equal(rootType({const: {a: [1, 'b']}}), "{a: [1, 'b']}");
  assert.equal(rootType({enum: ["'; import('evil'); '"]}), "'\\'; import(\\'evil\\'); \\''");
});

test('arrays and tuples', () => {
  assert.equal(rootType({type: 'array'}), 'unknown[]');
  assert.equal(rootType({type: 'array', items: {type: ['string', 'number']}}), '(string | number)[]');
  assert.equal(rootType({type: 'array', items: false}), 'never[]');
  assert.equal(
    rootType({type: 'array', prefixItems: [{type: 'string'}, {type: 'number'}], items: false, minItems: 1}),
    '[string, number?]',
  );
  assert.equal(rootType({prefixItems: [{type: 'string'}], minItems: 1}), '[string, ...unknown[]]');
  assert.equal(
    rootType({type: 'array', items: [{type: 'boolean'}], additionalItems: {type: 'string'}, minItems: 1}),
    '[boolean, ...string[]]',
  );
});

test('objects: required, optional, quoted keys and index signatures', () => {
  assert.equal(
    rootType({
      type: 'object',
      properties: {id: {type: 'string'}, 'x-y': {type: 'number'}, '0': {type: 'boolean'}},
      required: ['id', 'extra'],
    }),
    "{\n  '0'?: boolean;\n  id: string;\n  'x-y'?: number;\n  extra: unknown;\n}",
  );
  assert.equal(rootType({type: 'object'}), '{[key: string]: unknown}');
  assert.equal(rootType({type: 'object', additionalProperties: false}), 'Record<string, never>');
  assert.equal(rootType({type: 'object', additionalProperties: {type: 'number'}}), '{[key: string]: number}');
  assert.equal(
    rootType({type: 'object', properties: {a: {type: 'string'}}, additionalProperties: {type: 'number'}}),
    '{\n  a?: string;\n  [key: string]: number | string | undefined;\n}',
  );
  assert.equal(
    rootType({type: 'object', patternProperties: {'^x-': {type: 'string'}}}),
    '{[key: string]: string}',
  );
  assert.equal(rootType({properties: {a: {type: 'string'}}, required: ['a']}), '{\n  a: string;\n}');
});

test('anyOf and oneOf are unions, allOf is an intersection', () => {
  assert.equal(rootType({anyOf: [{type: 'string'}, {type: 'null'}]}), 'string | null');
  assert.equal(rootType({oneOf: [{const: 1}, {const: 2}]}), '1 | 2');
  assert.equal(
    rootType({
      allOf: [
        {type: 'object', additionalProperties: {type: 'string'}},
        {anyOf: [{type: 'string'}, {type: 'null'}]},
      ],
    }),
    '{[key: string]: string} & (string | null)',
  );
  assert.equal(rootType({anyOf: [{type: 'string'}, {}]}), 'unknown');
});

test('property descriptions become JSDoc and cannot close the comment', () => {
  const text = convertSchemaDeclarations(
    {
      type: 'object',
      properties: {
        a: {type: 'string', description: 'ends */ here\nsecond line', default: 'x', deprecated: true},
      },
    },
    {rootName: 'T'},
  );
  assert.ok(text.includes('   * ends *\\/ here\n   * second line\n'), text);
  assert.ok(text.includes('   * @default "x"\n   * @deprecated\n'), text);
  assert.equal(text.match(/\*\//g)?.length, 1, text);
});

test('$defs, definitions, pointers and anchors become named types', () => {
  const text = convertSchemaDeclarations(
    {
      type: 'object',
      properties: {
        a: {$ref: '#/$defs/Thing'},
        b: {$ref: '#/definitions/my-thing'},
        c: {$ref: '#/properties/a'},
        d: {$ref: '#leaf'},
        e: {$ref: '#/%24defs/Thing'},
        f: {$ref: 'https://example.com/other.json'},
        g: {$ref: '#/$defs/missing'},
      },
      $defs: {Thing: {type: 'string', description: 'A thing.'}, Leaf: {$anchor: 'leaf', type: 'number'}},
      definitions: {'my-thing': {type: 'boolean'}},
    },
    {rootName: 'Input'},
  );
  assert.match(text, /a\?: Def_Thing;/);
  assert.match(text, /b\?: Definition_my\$2D\$thing;/);
  assert.match(text, /c\?: Ref_\$2F\$properties\$2F\$a;/);
  assert.match(text, /d\?: Anchor_leaf;/);
  assert.match(text, /e\?: Def_Thing;/);
  assert.match(text, /f\?: unknown;/);
  assert.match(text, /g\?: unknown;/);
  assert.match(text, /\/\*\* A thing\. \*\/\ntype Def_Thing = string;/);
  assert.match(text, /type Definition_my\$2D\$thing = boolean;/);
  assert.match(text, /type Ref_\$2F\$properties\$2F\$a = Def_Thing;/);
  assert.match(text, /type Anchor_leaf = number;/);
  assert.equal(text.match(/type Def_Thing =/g)?.length, 1);
});

test('a reference to the root id resolves locally', () => {
  const text = convertSchemaDeclarations(
    {
      $id: 'https://example.com/s.json',
      type: 'object',
      properties: {next: {$ref: 'https://example.com/s.json'}},
    },
    {rootName: 'Input'},
  );
  assert.match(text, /next\?: Input;/);
});

test('eagerly circular aliases degrade to unknown, lazy recursion is kept', () => {
  const text = convertSchemaDeclarations(
    {
      $ref: '#/$defs/A',
      $defs: {
        A: {anyOf: [{$ref: '#/$defs/B'}, {type: 'string'}]},
        B: {anyOf: [{$ref: '#/$defs/A'}, {type: 'number'}]},
        List: {type: 'array', items: {$ref: '#/$defs/List'}},
      },
      properties: {list: {$ref: '#/$defs/List'}},
    },
    {rootName: 'Input'},
  );
  assert.match(text, /type Def_A = unknown;/);
  assert.match(text, /type Def_B = unknown;/);
  assert.match(text, /type Def_List = Def_List\[\];/);
  assert.match(text, /type Input = Def_A & \{/);
  assert.match(convertSchemaDeclarations({$ref: '#'}, {rootName: 'Output'}), /^type Output = unknown;/);
});
