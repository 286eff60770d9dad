import assert from 'node:assert/strict';
import {test} from 'node:test';
import {type RecordedRun, selectRemovals} from '../../../src/telemetry/retention/select-removals.ts';

const run = (workspace: string, time: number, state: RecordedRun['state'] = 'completed'): RecordedRun => ({
  workspace,
  runId: `2026010${time}T000000000Z-${workspace}${time}`,
  state,
});

test('per-workspace limit first, then the overall limit over the survivors; active and unknown runs stay', () => {
  const runs = [
    run('a', 1),
    run('a', 2),
    run('a', 3),
    run('a', 4),
    run('b', 5),
    run('b', 6),
    run('a', 0, 'active'),
    run('b', 0, 'unknown'),
  ];
  const removed = selectRemovals(runs, {perWorkspace: 2, total: 3})
    .map((r) => r.runId)
    .sort();
  // a keeps 4, 3 (1, 2 go); survivors by time 6, 5, 4, 3: the overall limit of 3 removes a3.
  assert.deepEqual(removed, [run('a', 1).runId, run('a', 2).runId, run('a', 3).runId].sort());
  assert.deepEqual(selectRemovals(runs, {perWorkspace: 10, total: 100}), []);
});
