// `npm test` type-checks the tests: scripts/test.ts runs `tsc -p tsconfig.check.json` before the test runner, that
// configuration covers test/, scripts/ and bench/, and with its options a type error in a test file fails tsc.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import {after, test} from 'node:test';

const repo = resolve(import.meta.dirname, '..', '..', '..');
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
const scratch = mkdtempSync(join(tmpdir(), 'stratos-typecheck-'));
after(() => rmSync(scratch, {recursive: true, force: true}));

test('scripts/test.ts type-checks with tsconfig.check.json before running tests', () => {
  const script = readFileSync(join(repo, 'scripts', 'test.ts'), 'utf8');
  const check = script.indexOf("'tsconfig.check.json'");
  assert.ok(check > 0, 'the type-check step is there');
  assert.ok(check < script.indexOf('runTests(rest'), 'before the test runner');
  const config = JSON.parse(readFileSync(join(repo, 'tsconfig.check.json'), 'utf8'));
  assert.equal(config.compilerOptions.noEmit, true);
  for (const folder of ['test', 'scripts', 'bench']) assert.ok(config.include.includes(`${folder}/**/*.ts`));
});

test('a type error in a test file fails the check; the fixed file passes', () => {
  const file = join(scratch, 'sample.test.mts');
  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({
      extends: join(repo, 'tsconfig.check.json'),
      include: [file],
      compilerOptions: {rootDir: '/', typeRoots: [join(repo, 'node_modules', '@types')]},
    }),
  );
  const check = () =>
    spawnSync(process.execPath, [tsc, '-p', join(scratch, 'tsconfig.json')], {
      cwd: dirname(file),
      encoding: 'utf8',
    });
  writeFileSync(file, 'const items: string[] = [];\nconst first: string = items[0];\nexport {first};\n');
  const failed = check();
  assert.notEqual(failed.status, 0);
  assert.match(failed.stdout, /sample\.test\.mts\(2,7\): error TS2322/);
  writeFileSync(
    file,
    "const items: string[] = [];\nconst first: string = items[0] ?? '';\nexport {first};\n",
  );
  const passed = check();
  assert.equal(passed.status, 0, passed.stdout);
});
