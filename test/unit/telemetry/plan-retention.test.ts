import assert from 'node:assert/strict';
import {mkdir, mkdtemp, readdir, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {applyRetention, applyWorkspaceRetention} from '../../../src/telemetry/retention/apply-retention.ts';
import {IN_PROCESS_EXCESS, planRetention} from '../../../src/telemetry/retention/plan-retention.ts';

const addRuns = async (home: string, workspace: string, count: number, from = 0) => {
  await mkdir(join(home, 'runs', workspace), {recursive: true});
  await writeFile(join(home, 'runs', workspace, 'workspace.json'), '{}');
  for (let i = from; i < from + count; i++) {
    const folder = join(
      home,
      'runs',
      workspace,
      `202612${String(i).padStart(2, '0')}T000000000Z-${workspace}${i}`,
    );
    await mkdir(folder, {recursive: true});
    await writeFile(join(folder, 'run.json'), JSON.stringify({status: 'succeeded'}));
  }
};

test('nothing is removed under the limits; one workspace a few runs over is trimmed in process, more by the cleaner', async () => {
  const home = await mkdtemp(join(tmpdir(), 'stratos-retention-plan-'));
  try {
    const limits = {perWorkspace: 2, total: 8};
    assert.deepEqual(await planRetention(home, limits), {kind: 'none'}, 'no runs folder yet');
    await addRuns(home, 'a-1', 2);
    assert.deepEqual(
      await planRetention(home, limits),
      {kind: 'none'},
      'at the limit, workspace.json not counted',
    );
    await addRuns(home, 'a-1', 1, 2);
    assert.deepEqual(await planRetention(home, limits), {kind: 'workspace', workspace: 'a-1'}, 'one over');
    await addRuns(home, 'a-1', IN_PROCESS_EXCESS - 1, 3);
    assert.deepEqual(
      await planRetention(home, limits),
      {kind: 'workspace', workspace: 'a-1'},
      'at the excess',
    );
    await addRuns(home, 'a-1', 1, 2 + IN_PROCESS_EXCESS);
    assert.deepEqual(await planRetention(home, limits), {kind: 'cleaner'}, 'past the in-process excess');
    await rm(join(home, 'runs'), {recursive: true});
    await addRuns(home, 'a-1', 3);
    await addRuns(home, 'b-2', 3);
    assert.deepEqual(await planRetention(home, limits), {kind: 'cleaner'}, 'two workspaces over');
    await rm(join(home, 'runs', 'b-2'), {recursive: true});
    await addRuns(home, 'c-3', 2);
    await addRuns(home, 'd-4', 2);
    assert.deepEqual(await planRetention(home, {perWorkspace: 2, total: 8}), {
      kind: 'workspace',
      workspace: 'a-1',
    });
    assert.deepEqual(
      await planRetention(home, {perWorkspace: 2, total: 6}),
      {kind: 'cleaner'},
      'over the total',
    );
  } finally {
    await rm(home, {recursive: true, force: true});
  }
});

test('trimming one workspace removes what the full retention would, and only there', async () => {
  const homes = await Promise.all([0, 1].map(() => mkdtemp(join(tmpdir(), 'stratos-retention-trim-'))));
  try {
    for (const home of homes) {
      await addRuns(home, 'a-1', 5);
      await addRuns(home, 'b-2', 2);
      const active = join(home, 'runs', 'a-1', '20261100T000000000Z-active');
      await mkdir(active);
      await writeFile(join(active, 'run.json'), JSON.stringify({status: 'running', pid: process.pid}));
    }
    const limits = {perWorkspace: 3, total: 20};
    const trimmed = await applyWorkspaceRetention(homes[0]!, 'a-1', limits);
    const full = await applyRetention(homes[1]!, limits);
    const names = (paths: string[]) => paths.map((path) => path.split('/').slice(-2).join('/')).sort();
    assert.deepEqual(names(trimmed.removed), [
      'a-1/20261200T000000000Z-a-10',
      'a-1/20261201T000000000Z-a-11',
    ]);
    assert.deepEqual(names(trimmed.removed), names(full.removed));
    assert.deepEqual(trimmed.failures, []);
    for (const home of homes) {
      const left = (await readdir(join(home, 'runs', 'a-1'))).sort();
      assert.ok(left.includes('20261100T000000000Z-active'), 'an active run stays');
      assert.equal(left.length, 5, 'three completed runs, the active one and workspace.json');
    }
  } finally {
    await Promise.all(homes.map((home) => rm(home, {recursive: true, force: true})));
  }
});
