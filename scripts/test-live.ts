// `npm run test:live`: the opt-in live suite (test/live/), never part of `npm test` or CI. Each target runs a real
// harness against its real provider when its credentials are in the environment; every check is reported as
// passed, failed or skipped with the reason. Exits 1 only when a check that ran failed.
import {spawnSync} from 'node:child_process';
import {globSync} from 'node:fs';

const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  console.error(
    `npm run test:live must run on Node.js 24 (the repository's own 'node' devDependency); this is ${process.version}.`,
  );
  process.exit(1);
}
const files = globSync('test/live/**/*.test.ts').sort();
const result = spawnSync(
  process.execPath,
  ['--test', '--test-reporter=spec', '--test-concurrency=1', '--test-timeout=900000', ...files],
  {stdio: 'inherit'},
);
process.exit(result.status ?? 1);
