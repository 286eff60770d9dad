import assert from 'node:assert/strict';
import {test} from 'node:test';
import {z} from 'zod';
import {isWorkflowDefinition, type WorkflowDefinition, workflow} from '../../../src/contract/index.ts';
import {isStratosError} from '../../../src/errors/index.ts';
import {prReview} from './pr-review.ts';

/** Type-level equality, checked by `tsc --noEmit --strict ... test/unit/contract/define-workflow.test.ts`. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(_proof?: T): void {}

test('workflow() returns a frozen, branded definition with the authored parts', async () => {
  assert.ok(Object.isFrozen(prReview));
  assert.ok(isWorkflowDefinition(prReview));
  assert.deepEqual(Object.keys(prReview), ['input', 'output', 'run']);
  assert.equal((prReview as unknown as Record<symbol, unknown>)[Symbol.for('stratos.workflow')], true);
  assert.deepEqual(await prReview.run({repo: 'org/repo', pr_number: 42}), {
    summary: 'Review requested for org/repo#42',
  });
});

test('isWorkflowDefinition rejects look-alikes and accepts a brand from another package copy', () => {
  assert.equal(isWorkflowDefinition({input: z.strictObject({}), output: z.object({}), run() {}}), false);
  assert.equal(isWorkflowDefinition(null), false);
  assert.equal(isWorkflowDefinition('workflow'), false);
  const foreign = {input: {}, output: {}, run() {}, [Symbol.for('stratos.workflow')]: true};
  assert.equal(isWorkflowDefinition(foreign), true);
});

test('workflow() does not check the contract itself', () => {
  const loose = workflow({input: z.object({a: z.string()}), output: z.string(), run: () => 'x'});
  assert.ok(isWorkflowDefinition(loose));
});

test('workflow() throws STRATOS_CONTRACT_NOT_WORKFLOW for something that is not a definition', () => {
  for (const bad of [
    undefined,
    null,
    42,
    'x',
    {input: z.strictObject({}), output: z.object({})},
    {run() {}},
  ]) {
    assert.throws(
      () => workflow(bad as never),
      (error: unknown) => isStratosError(error) && error.code === 'STRATOS_CONTRACT_NOT_WORKFLOW',
    );
  }
  assert.throws(
    () => workflow({input: z.strictObject({}), output: z.object({})} as never),
    /missing or invalid: run/,
  );
});

test('workflow() infers run input from the input schema and checks the result against the output', () => {
  const defaults = workflow({
    input: z.strictObject({
      name: z.string().describe('Name'),
      count: z.number().default(1).describe('How many'),
      tags: z.array(z.string()).optional().describe('Tags'),
    }),
    output: z.object({greeting: z.string().describe('Greeting'), n: z.number().default(0).describe('n')}),
    async run(input) {
      // run sees the parsed input: defaults applied, optional fields optional.
      expectType<Equal<typeof input, {name: string; count: number; tags?: string[] | undefined}>>();
      // The output's input type: a defaulted output field may be left out.
      return {greeting: `hi ${input.name}`};
    },
  });
  expectType<
    Equal<Parameters<typeof defaults.run>[0], {name: string; count: number; tags?: string[] | undefined}>
  >();
  expectType<Equal<typeof prReview, WorkflowDefinition<typeof prReview.input, typeof prReview.output>>>();

  // Compiled only: each body is a type error that tsc must report.
  const neverCalled = () => {
    workflow({
      input: z.strictObject({repo: z.string().describe('r')}),
      output: z.object({summary: z.string().describe('s')}),
      // @ts-expect-error summary must be a string
      run: ({repo}) => ({summary: repo.length}),
    });
    workflow({
      input: z.strictObject({repo: z.string().describe('r')}),
      output: z.object({summary: z.string().describe('s')}),
      run({repo}) {
        // @ts-expect-error repo is a string, not a number
        const n: number = repo;
        return {summary: String(n)};
      },
    });
    workflow({
      input: z.strictObject({repo: z.string().describe('r')}),
      output: z.object({summary: z.string().describe('s')}),
      // @ts-expect-error the promise must resolve to the output
      run: async () => ({}),
    });
  };
  assert.equal(typeof neverCalled, 'function');
});
