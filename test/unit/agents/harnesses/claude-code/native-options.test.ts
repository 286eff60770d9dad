// Claude Code's native budget cap: the USD left when the session starts, passed only when it is above zero (the
// binary refuses to start with `--max-budget-usd 0` or less, as observed with the pinned binary).
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {HarnessSessionOptions} from '../../../../../src/agents/harness.ts';
import {toNativeOptions} from '../../../../../src/agents/harnesses/claude-code/native-options.ts';

const session = (maxBudgetUsd?: number): HarnessSessionOptions => ({
  agent: 'coder',
  workingDirectory: '/tmp',
  mcpServers: [],
  tools: {removed: [], enabled: []},
  env: {},
  hooks: {},
  emit: () => {},
  ...(maxBudgetUsd === undefined ? {} : {maxBudgetUsd}),
});

test("the USD left becomes Claude Code's maxBudgetUsd, only when above zero", () => {
  assert.equal(toNativeOptions(session(0.25), {}).maxBudgetUsd, 0.25);
  assert.equal('maxBudgetUsd' in toNativeOptions(session(), {}), false);
  assert.equal('maxBudgetUsd' in toNativeOptions(session(0), {}), false);
  assert.equal('maxBudgetUsd' in toNativeOptions(session(-0.001), {}), false);
});
