// `npm run example` and friends: builds dist/ only when its inputs changed since the last build
// (scripts/build-inputs.ts), so running an example a second time costs the run alone. `npm run build` and
// `npm test` always build. With --check it only says whether dist/ is current (exit 0) or not (exit 1).
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {buildInputsStamp, hashBuildInputs, repository} from './build-inputs.ts';

const current =
  existsSync(buildInputsStamp) &&
  readFileSync(buildInputsStamp, 'utf8') === hashBuildInputs() &&
  existsSync(join(repository, 'dist', 'bundle', 'cli.js'));
if (process.argv.includes('--check')) {
  console.error(current ? 'dist/ is current.' : 'dist/ is stale or missing.');
  process.exit(current ? 0 : 1);
}
if (current) console.error('dist/ is current: no build needed (npm run build always rebuilds).');
else {
  const build = spawnSync('npm', ['run', 'build'], {cwd: repository, stdio: 'inherit'});
  if (build.status !== 0) process.exit(build.status ?? 1);
}
