// `npm run example` builds only when dist/ is stale: after the build that `npm test` runs first, the stamp that the
// bundle step writes says dist/ is current, so the example's pre-step skips the build.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {resolve} from 'node:path';
import {test} from 'node:test';

const repository = resolve(import.meta.dirname, '..', '..', '..');

test('right after a build, dist/ is current and the example pre-step would not build', () => {
  const check = spawnSync(process.execPath, ['scripts/build-if-stale.ts', '--check'], {
    cwd: repository,
    encoding: 'utf8',
  });
  assert.equal(check.status, 0, `${check.stderr} (run npm run build first)`);
  assert.match(check.stderr, /dist\/ is current/);
});
