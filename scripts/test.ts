// `npm test`: checks the Node version, lints and formats (check only), type-checks src/, test/, scripts/ and bench/
// (tsconfig.check.json, no output), checks the layering rule, then runs every test with Node's own runner. Each
// step stops the run on failure.
import {spawnSync} from 'node:child_process';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {ensureTestPackages} from './ensure-test-packages.ts';
import {listTestFiles} from './test-files.ts';

const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  console.error(
    `npm test must run on Node.js 24 (the repository's own 'node' devDependency); this is ${process.version}.`,
  );
  process.exit(1);
}
console.log(`node ${process.version}`);
ensureTestPackages();

// The conformance scenarios measure client timing (SSE retry within 200 ms of the server's retry field): they run
// last and alone, so the rest of the suite's processes do not load the machine while they are measured.
const requested = process.argv.slice(2);
const all = listTestFiles();
const timingSensitive = all.filter((file) => file.startsWith('test/conformance/'));
const rest = all.filter((file) => !timingSensitive.includes(file));
const runTests = (files: string[], concurrency: number): [string, string[]] => [
  process.execPath,
  ['--test', `--test-concurrency=${concurrency}`, '--test-timeout=300000', ...files],
];

// Tests run by type stripping, which checks no types: without this step a type-level assertion could never fail.
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const steps: [string, string[]][] = [
  ['biome', ['check', '.']],
  [process.execPath, [tsc, '-p', 'tsconfig.check.json']],
  [process.execPath, ['scripts/check-layers.ts']],
  ...(requested.length > 0 ? [runTests(requested, 2)] : [runTests(rest, 2), runTests(timingSensitive, 1)]),
];
for (const [command, args] of steps) {
  const result = spawnSync(command, args, {stdio: 'inherit'});
  if (result.status !== 0) process.exit(result.status ?? 1);
}
