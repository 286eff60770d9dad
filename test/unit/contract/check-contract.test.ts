import assert from 'node:assert/strict';
import {test} from 'node:test';
import {z} from 'zod';
import {checkWorkflowContract} from '../../../src/contract/index.ts';
import {prReview, schemasOnly} from './pr-review.ts';

/** The findings as `code path` lines, sorted, which reads well in an assertion diff. */
function findings(input: z.core.$ZodType, output: z.core.$ZodType = z.object({})): string[] {
  return checkWorkflowContract(schemasOnly(input, output))
    .map((d) => `${d.code} ${d.path}`)
    .sort();
}

test('the pr-review example has a valid contract', () => {
  assert.deepEqual(checkWorkflowContract(prReview), []);
});

test('an empty output object is valid', () => {
  assert.deepEqual(findings(z.strictObject({}), z.object({})), []);
});

test('every diagnostic is an error with a whole-sentence message naming the side and path', () => {
  const diagnostics = checkWorkflowContract(schemasOnly(z.strictObject({repo: z.string()})));
  assert.equal(diagnostics.length, 1);
  const [d] = diagnostics;
  assert.equal(d?.severity, 'error');
  assert.equal(d?.code, 'STRATOS_CONTRACT_DESCRIPTION_MISSING');
  assert.equal(d?.path, 'input.repo');
  assert.match(d?.message ?? '', /^Input field 'repo' has no description\. .*\.$/);
});

test('a value that is not workflow() output is STRATOS_CONTRACT_NOT_WORKFLOW', () => {
  for (const value of [undefined, {}, {input: z.strictObject({}), output: z.object({}), run() {}}]) {
    assert.deepEqual(
      checkWorkflowContract(value).map((d) => d.code),
      ['STRATOS_CONTRACT_NOT_WORKFLOW'],
    );
  }
});

test('input and output must be plain object schemas', () => {
  const obj = z.strictObject({a: z.string().describe('a')});
  assert.deepEqual(findings(obj.optional(), z.object({}).nullable()), [
    'STRATOS_CONTRACT_NOT_OBJECT input',
    'STRATOS_CONTRACT_NOT_OBJECT output',
  ]);
  assert.deepEqual(findings(z.union([obj, obj]), z.string()), [
    'STRATOS_CONTRACT_NOT_OBJECT input',
    'STRATOS_CONTRACT_NOT_OBJECT output',
  ]);
  assert.deepEqual(findings({} as never, {_def: {typeName: 'ZodObject'}} as never), [
    'STRATOS_CONTRACT_NOT_OBJECT input',
    'STRATOS_CONTRACT_NOT_OBJECT output',
  ]);
  const [d] = checkWorkflowContract(schemasOnly(obj.optional()));
  assert.match(
    d?.message ?? '',
    /^The input schema is not an object schema \(its Zod type is 'optional'\)\. Declare input as z\.strictObject/,
  );
});

test('descriptions are required on fields at every depth, on either side of a wrapper', () => {
  const input = z.strictObject({
    plain: z.string(),
    described: z.string().describe('ok'),
    empty: z.string().describe(''),
    meta: z.string().meta({description: 'via meta'}),
    innerDescribed: z.string().describe('inner').optional(),
    outerDescribed: z.string().optional().describe('outer'),
    nullableInner: z.string().describe('inner').nullable().default(null),
    checkedAfter: z.string().describe('kept through clones').min(1),
    options: z
      .strictObject({
        items: z.array(z.strictObject({id: z.number(), name: z.string().describe('n')})).describe('items'),
        byName: z.record(z.string(), z.strictObject({v: z.boolean()})).describe('by name'),
        choice: z
          .union([z.strictObject({kind: z.literal('a').describe('k'), x: z.string()}), z.null()])
          .describe('choice'),
        pair: z.tuple([z.string(), z.strictObject({deep: z.number()})]).describe('pair'),
      })
      .optional()
      .describe('options'),
  });
  assert.deepEqual(
    findings(input, z.object({summary: z.string(), meta: z.object({n: z.number()}).describe('m')})),
    [
      'STRATOS_CONTRACT_DESCRIPTION_MISSING input.options.byName.*.v',
      'STRATOS_CONTRACT_DESCRIPTION_MISSING input.options.choice.x',
      'STRATOS_CONTRACT_DESCRIPTION_MISSING input.options.items[].id',
      'STRATOS_CONTRACT_DESCRIPTION_MISSING input.options.pair[1].deep',
      'STRATOS_CONTRACT_DESCRIPTION_MISSING input.plain',
      'STRATOS_CONTRACT_DESCRIPTION_MISSING output.meta.n',
      'STRATOS_CONTRACT_DESCRIPTION_MISSING output.summary',
    ],
  );
});

test('input objects must be strict at every depth; output objects need not be', () => {
  const input = z.object({
    a: z.object({b: z.string().describe('b')}).describe('a'),
    loose: z.looseObject({}).describe('loose'),
    catchall: z.strictObject({}).catchall(z.string()).describe('catchall'),
    strictCall: z.object({}).strict().describe('strict() is fine'),
    list: z.array(z.object({}).describe('element')).describe('list'),
    either: z.union([z.strictObject({}), z.object({})]).describe('either'),
    map: z.looseRecord(z.string(), z.string()).describe('loose record'),
  });
  assert.deepEqual(findings(input), [
    'STRATOS_CONTRACT_INPUT_NOT_STRICT input',
    'STRATOS_CONTRACT_INPUT_NOT_STRICT input.a',
    'STRATOS_CONTRACT_INPUT_NOT_STRICT input.catchall',
    'STRATOS_CONTRACT_INPUT_NOT_STRICT input.either',
    'STRATOS_CONTRACT_INPUT_NOT_STRICT input.list[]',
    'STRATOS_CONTRACT_INPUT_NOT_STRICT input.loose',
    'STRATOS_CONTRACT_INPUT_NOT_STRICT input.map',
  ]);
  const [root] = checkWorkflowContract(schemasOnly(z.object({})));
  assert.match(
    root?.message ?? '',
    /The input object accepts unknown fields\. Declare it with z\.strictObject/,
  );
  const output = z.object({nested: z.looseObject({x: z.string().describe('x')}).describe('nested')});
  assert.deepEqual(findings(z.strictObject({}), output), []);
});

test('JSON-compatible types are accepted', () => {
  const input = z.strictObject({
    s: z.email().max(100).describe('s'),
    n: z.number().int().min(0).max(10).multipleOf(2).describe('n'),
    i: z.int32().positive().describe('i'),
    b: z.boolean().describe('b'),
    nul: z.null().describe('nul'),
    lits: z.literal(['a', 1, true, null]).describe('lits'),
    e: z.enum(['x', 'y']).default('x').describe('e'),
    arr: z.array(z.string().regex(/^a/)).min(1).describe('arr'),
    tup: z.tuple([z.string()], z.number()).describe('tup'),
    rec: z.record(z.enum(['a', 'b']), z.number()).describe('rec'),
    part: z.partialRecord(z.literal(['a', 'b']), z.number()).describe('part'),
    du: z
      .discriminatedUnion('k', [
        z.strictObject({k: z.literal('a').describe('k')}),
        z.strictObject({k: z.literal('b').describe('k')}),
      ])
      .describe('du'),
    inter: z
      .intersection(
        z.strictObject({a: z.string().describe('a')}),
        z.strictObject({b: z.string().describe('b')}),
      )
      .describe('inter'),
    ro: z.array(z.string()).readonly().describe('ro'),
    anything: z.unknown().describe('anything'),
    json: z.json().describe('any JSON value'),
    tpl: z.templateLiteral(['v', z.number()]).describe('tpl'),
    pre: z.string().prefault('x').describe('pre'),
    brand: z.string().brand<'Id'>().describe('brand'),
  });
  assert.deepEqual(findings(input), []);
});

test('types without a JSON value are STRATOS_CONTRACT_UNSUPPORTED_TYPE, named in the message', () => {
  const input = z.strictObject({
    big: z.bigint().describe('big'),
    when: z.date().describe('when'),
    map: z.map(z.string(), z.string()).describe('map'),
    set: z.set(z.string()).describe('set'),
    sym: z.symbol().describe('sym'),
    undef: z.undefined().describe('undef'),
    nothing: z.void().describe('nothing'),
    nan: z.nan().describe('nan'),
    file: z.file().describe('file'),
    custom: z.custom<string>(() => true).describe('custom'),
    promise: z.promise(z.string()).describe('promise'),
    bigLiteral: z.literal(1n).describe('bigLiteral'),
    numKeys: z.record(z.number(), z.string()).describe('numKeys'),
    nested: z.array(z.strictObject({at: z.date().optional().describe('at')})).describe('nested'),
  });
  assert.deepEqual(findings(input, z.object({out: z.union([z.string(), z.bigint()]).describe('out')})), [
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.big',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.bigLiteral',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.custom',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.file',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.map',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.nan',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.nested[].at',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.nothing',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.numKeys',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.promise',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.set',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.sym',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.undef',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.when',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE output.out',
  ]);
  const [d] = checkWorkflowContract(schemasOnly(z.strictObject({when: z.date().describe('w')})));
  assert.match(
    d?.message ?? '',
    /^Input field 'when' uses z\.date\(\), which is not a JSON type\. Use z\.iso\.datetime/,
  );
});

test('transforms, pipes, custom checks and fallbacks are STRATOS_CONTRACT_UNREPRESENTABLE', () => {
  const input = z.strictObject({
    transform: z
      .string()
      .transform((v) => v.length)
      .describe('transform'),
    preprocess: z.preprocess((v) => String(v), z.string()).describe('preprocess'),
    pipe: z.string().pipe(z.email()).describe('pipe'),
    codec: z.stringbool().describe('codec'),
    refine: z
      .string()
      .refine((v) => v !== 'x')
      .describe('refine'),
    superRefine: z
      .number()
      .superRefine(() => {})
      .describe('superRefine'),
    check: z
      .number()
      .check(() => {})
      .describe('check'),
    trim: z.string().trim().describe('trim'),
    fallback: z.string().catch('x').describe('fallback'),
    deep: z
      .array(z.union([z.strictObject({v: z.string().refine(Boolean).optional().describe('v')}), z.number()]))
      .describe('deep'),
  });
  const refinedOutput = z.object({ok: z.boolean().describe('ok')}).refine((o) => o.ok);
  assert.deepEqual(findings(input, refinedOutput), [
    'STRATOS_CONTRACT_UNREPRESENTABLE input.check',
    'STRATOS_CONTRACT_UNREPRESENTABLE input.codec',
    'STRATOS_CONTRACT_UNREPRESENTABLE input.deep[].v',
    'STRATOS_CONTRACT_UNREPRESENTABLE input.fallback',
    'STRATOS_CONTRACT_UNREPRESENTABLE input.pipe',
    'STRATOS_CONTRACT_UNREPRESENTABLE input.preprocess',
    'STRATOS_CONTRACT_UNREPRESENTABLE input.refine',
    'STRATOS_CONTRACT_UNREPRESENTABLE input.superRefine',
    'STRATOS_CONTRACT_UNREPRESENTABLE input.transform',
    'STRATOS_CONTRACT_UNREPRESENTABLE input.trim',
    'STRATOS_CONTRACT_UNREPRESENTABLE output',
  ]);
  const [d] = checkWorkflowContract(
    schemasOnly(z.strictObject({t: z.string().transform(Number).describe('t')})),
  );
  assert.match(d?.message ?? '', /move the transformation into run\.$/);
  const [r] = checkWorkflowContract(
    schemasOnly(z.strictObject({r: z.string().refine(Boolean).describe('r')})),
  );
  assert.match(r?.message ?? '', /move business checks into run\.$/);
});

test('the top-level input field overrides is reserved; nested ones and output ones are not', () => {
  const input = z.strictObject({
    overrides: z.strictObject({}).describe('mine'),
    nested: z.strictObject({overrides: z.string().describe('fine here')}).describe('nested'),
  });
  assert.deepEqual(findings(input, z.object({overrides: z.string().describe('fine in output')})), [
    'STRATOS_CONTRACT_RESERVED_FIELD input.overrides',
  ]);
});

test('all violations are reported together, several per field when they differ', () => {
  const input = z.object({overrides: z.date(), list: z.array(z.object({}))});
  assert.deepEqual(findings(input), [
    'STRATOS_CONTRACT_DESCRIPTION_MISSING input.list',
    'STRATOS_CONTRACT_DESCRIPTION_MISSING input.overrides',
    'STRATOS_CONTRACT_INPUT_NOT_STRICT input',
    'STRATOS_CONTRACT_INPUT_NOT_STRICT input.list[]',
    'STRATOS_CONTRACT_RESERVED_FIELD input.overrides',
    'STRATOS_CONTRACT_UNSUPPORTED_TYPE input.overrides',
  ]);
});

test('recursive schemas (getters and z.lazy) are checked without looping', () => {
  const Category = z.strictObject({
    name: z.string().describe('Category name'),
    get children() {
      return z.array(Category).describe('Subcategories');
    },
  });
  type TreeNode = {label: string; next?: TreeNode | undefined};
  const Tree: z.ZodType<TreeNode> = z.lazy(() =>
    z.strictObject({label: z.string().describe('label'), next: Tree.optional().describe('next')}),
  );
  assert.deepEqual(
    findings(z.strictObject({root: Category.describe('root'), tree: Tree.describe('tree')})),
    [],
  );

  const Bad = z.object({
    name: z.string(),
    get children(): z.ZodArray<typeof Bad> {
      return z.array(Bad);
    },
  });
  assert.deepEqual(
    findings(z.strictObject({root: Bad.describe('root')}), z.object({root: Bad.describe('root')})),
    [
      'STRATOS_CONTRACT_DESCRIPTION_MISSING input.root.children',
      'STRATOS_CONTRACT_DESCRIPTION_MISSING input.root.name',
      'STRATOS_CONTRACT_DESCRIPTION_MISSING output.root.children',
      'STRATOS_CONTRACT_DESCRIPTION_MISSING output.root.name',
      'STRATOS_CONTRACT_INPUT_NOT_STRICT input.root',
    ],
  );
});

test('a lazy schema whose getter throws is reported, not thrown', () => {
  const broken = z.lazy((): z.ZodString => {
    throw new Error('not ready');
  });
  const diagnostics = checkWorkflowContract(schemasOnly(z.strictObject({x: broken.describe('x')})));
  assert.deepEqual(
    diagnostics.map((d) => `${d.code} ${d.path}`),
    ['STRATOS_CONTRACT_UNREPRESENTABLE input.x'],
  );
  assert.match(diagnostics[0]?.message ?? '', /not ready/);
});

test('odd field names are quoted in paths', () => {
  assert.deepEqual(
    findings(
      z.strictObject({'a.b': z.string(), 'with space': z.strictObject({c: z.string()}).describe('x')}),
    ),
    [
      'STRATOS_CONTRACT_DESCRIPTION_MISSING input["a.b"]',
      'STRATOS_CONTRACT_DESCRIPTION_MISSING input["with space"].c',
    ],
  );
});
