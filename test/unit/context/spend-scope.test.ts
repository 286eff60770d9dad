// A run's spend scope sums every call of the run and its descendants, keeps the per-agent, per-model breakdown,
// and enforces the run's budget and each child's own as an inner limit.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {SpendScope} from '../../../src/context/spend-scope.ts';
import {BudgetExceededError, isStratosError} from '../../../src/errors/index.ts';

const call = (usd: number | undefined, inputTokens = 100, outputTokens = 10) => ({
  source: 'agent' as const,
  name: 'writer',
  harness: 'claude-code',
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  inputTokens,
  outputTokens,
  usd,
});

test('totals include descendants; each invocation keeps its own; unknown costs are counted apart', () => {
  const root = new SpendScope({executionId: 'r', workflow: 'parent'});
  const child = root.openChild('c', 'child', undefined);
  root.record(call(0.01));
  child.record(call(0.02));
  child.record(call(undefined));
  assert.equal(root.totals.calls, 3);
  assert.equal(root.totals.tokens, 330);
  assert.equal(Math.round(root.totals.usd * 1e8) / 1e8, 0.03);
  assert.equal(root.totals.unknownCostCalls, 1);
  assert.equal(child.totals.calls, 2);
  const summary = root.summarize();
  assert.deepEqual(
    summary.workflows.map((w) => [w.workflow, w.parentExecutionId, w.usd, w.calls]),
    [
      ['parent', undefined, 0.03, 3],
      ['child', 'r', 0.02, 2],
    ],
  );
  assert.deepEqual(
    summary.breakdown.map((row) => [row.workflow, row.name, row.model, row.calls, row.usd]),
    [
      ['parent', 'writer', 'claude-sonnet-4-5', 1, 0.01],
      ['child', 'writer', 'claude-sonnet-4-5', 2, 0.02],
    ],
  );
});

test("the run's budget covers descendants and a child's own budget is an inner limit", () => {
  const root = new SpendScope({executionId: 'r', workflow: 'parent', budget: {usd: 0.05}});
  const child = root.openChild('c', 'child', {tokens: 200});
  child.record(call(0.01));
  assert.doesNotThrow(() => child.checkBudget("agent 'writer'"));
  child.record(call(0.01));
  // 220 tokens: the child's own limit is spent, the run's is not.
  assert.throws(
    () => child.checkBudget("agent 'writer'"),
    (error: unknown) =>
      error instanceof BudgetExceededError &&
      isStratosError(error) &&
      error.code === 'STRATOS_BUDGET_EXCEEDED' &&
      error.unit === 'tokens' &&
      error.spent === 220 &&
      error.limit === 200 &&
      error.workflow === 'child',
  );
  assert.doesNotThrow(() => root.checkBudget('decision'));
  root.record(call(0.04));
  assert.throws(() => root.checkBudget("decision 'route'"), /spent \$0\.0600 of its \$0\.0500 budget/);
  assert.deepEqual(root.remaining(), {usd: 0.05 - 0.06});
  assert.deepEqual(root.summarize().budgetExceeded, {
    workflow: 'child',
    unit: 'tokens',
    spent: 220,
    limit: 200,
    subject: "agent 'writer'",
  });
});

test("a harness's own cost figure is recorded beside the computed one without counting a call", () => {
  const root = new SpendScope({executionId: 'r', workflow: 'parent'});
  root.record(call(0.01));
  root.record({...call(undefined), nativeUsd: 0.012, nativeOnly: true});
  assert.equal(root.totals.calls, 1);
  assert.equal(root.totals.nativeUsd, 0.012);
  assert.equal(root.totals.unknownCostCalls, 0);
});
