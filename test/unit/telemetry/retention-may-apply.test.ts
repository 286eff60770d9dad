import assert from 'node:assert/strict';
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {retentionMayApply} from '../../../src/telemetry/retention/retention-may-apply.ts';

test('the cleaner is needed only when a workspace or the total is over its limit', async () => {
  const home = await mkdtemp(join(tmpdir(), 'stratos-retention-check-'));
  try {
    const limits = {perWorkspace: 2, total: 3};
    assert.equal(await retentionMayApply(home, limits), false, 'no runs folder yet');
    const addRuns = async (workspace: string, count: number) => {
      await mkdir(join(home, 'runs', workspace), {recursive: true});
      await writeFile(join(home, 'runs', workspace, 'workspace.json'), '{}');
      for (let i = 0; i < count; i++)
        await mkdir(join(home, 'runs', workspace, `2026120${i}T000000000Z-${workspace}${i}`), {
          recursive: true,
        });
    };
    await addRuns('a-1', 2);
    assert.equal(
      await retentionMayApply(home, limits),
      false,
      'at the per-workspace limit, workspace.json not counted',
    );
    await addRuns('b-2', 1);
    assert.equal(await retentionMayApply(home, limits), false, 'at the total limit');
    await addRuns('c-3', 1);
    assert.equal(await retentionMayApply(home, limits), true, 'over the total');
    await rm(join(home, 'runs', 'c-3'), {recursive: true});
    await addRuns('a-1', 3);
    assert.equal(await retentionMayApply(home, limits), true, 'over the per-workspace limit');
  } finally {
    await rm(home, {recursive: true, force: true});
  }
});
