// Package verification: `npm pack` the repository, install the archive into an independent consumer folder, and
// use the installed bin (on this Node 24) to build and run a copy of the shipped example. Nothing here may rely on
// the checkout's own node_modules: the consumer gets only what the tarball and its public dependencies provide.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {cpSync, existsSync, readFileSync, realpathSync} from 'node:fs';
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {delimiter, dirname, join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {findClosedPort} from '../../helpers/closed-port.ts';
import {cleanEnv} from '../../helpers/run-cli.ts';
import {startRunsPage} from '../../helpers/runs-page.ts';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
// npm scripts and the Stratos bin run on this Node (24), whatever `node` the machine has first on its PATH.
const npmEnv = {...cleanEnv(), PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`};

function npm(args: string[], cwd: string): string {
  const result = spawnSync('npm', args, {cwd, env: npmEnv, encoding: 'utf8', timeout: 600_000});
  assert.equal(result.status, 0, `npm ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

interface PackedFile {
  path: string;
}

let base: string;
let tarball: string;
let packed: string[];
let installed: string;
let bin: string;
let project: {cwd: string; env: NodeJS.ProcessEnv};

function stratos(args: string[]): {status: number | null; stdout: string; stderr: string} {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: project.cwd,
    env: project.env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return {status: result.status, stdout: result.stdout, stderr: result.stderr};
}

describe('the npm package', () => {
  before(async () => {
    assert.ok(
      existsSync(join(repo, 'dist', 'index.js')) && existsSync(join(repo, 'dist', 'bundle', 'cli.js')),
      "dist/ is missing: run 'npm run build' first (npm test does it as pretest).",
    );
    base = realpathSync(await mkdtemp(join(tmpdir(), 'stratos-package-')));
    const packs = join(base, 'pack');
    await mkdir(packs);
    const report = JSON.parse(
      npm(['pack', '--json', '--ignore-scripts', '--pack-destination', packs], repo),
    ) as {filename: string; files: PackedFile[]}[];
    tarball = join(packs, report[0]!.filename);
    packed = report[0]!.files.map((file) => file.path);

    const consumer = join(base, 'consumer');
    await mkdir(consumer);
    await writeFile(
      join(consumer, 'package.json'),
      `${JSON.stringify({name: 'stratos-consumer', private: true, type: 'module'}, null, 2)}\n`,
    );
    npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error', tarball], consumer);
    installed = join(consumer, 'node_modules', '@stratoscli', 'stratos');
    bin = join(installed, 'bin', 'stratos.js');

    const work = join(base, 'project');
    await mkdir(join(work, '.stratos', 'workflows'), {recursive: true});
    await mkdir(join(base, 'os-home'));
    // The example comes from the installed package: the archive must ship it.
    cpSync(join(installed, 'examples', 'pr-review'), join(work, '.stratos', 'workflows', 'pr-review'), {
      recursive: true,
    });
    project = {
      cwd: work,
      env: {...cleanEnv(), STRATOS_HOME: join(base, 'stratos-home'), HOME: join(base, 'os-home'), CI: '1'},
    };
  });

  after(() => (base === undefined ? undefined : rm(base, {recursive: true, force: true})));

  test('package.json "files" ships bin, dist, src, skills, templates, examples and docs, and no tests or benchmarks', () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {files: string[]};
    for (const folder of ['bin/', 'dist/', 'src/', 'skills/', 'templates/', 'examples/', 'docs/']) {
      assert.ok(pkg.files.includes(folder), `"files" includes ${folder}`);
    }
    for (const file of [
      'package.json',
      'README.md',
      'LICENSE',
      'THIRD-PARTY-NOTICES.md',
      'bin/stratos.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/run-cli.js',
      'dist/bundle/index.js',
      'dist/bundle/workflows.js',
      'dist/bundle/mcp.js',
      'dist/bundle/cli.js',
      'dist/bundle/retention-cleaner.js',
      'dist/bundle/stdio-launcher.js',
      'src/index.ts',
      'skills/stratos-workflows/SKILL.md',
      'templates/basic/workflow.yaml',
      'templates/mcp/server.mjs',
      'templates/agent/tests/scripted-title.yaml',
      'templates/decision/workflow.ts',
      'examples/pr-review/workflow.yaml',
      'examples/pr-review/workflow.ts',
      'docs/cli.md',
      'docs/errors.md',
      'src/viewer/assets/index.html',
      'src/viewer/assets/style.css',
      'dist/viewer/page/app.js',
    ]) {
      assert.ok(packed.includes(file), `the archive contains ${file}`);
    }
    const unwanted = packed.filter((file) =>
      /^(test|bench|scripts|\.ci|node_modules)\/|(^|\/)node_modules\/|^examples\/[^/]+\/dist\/|^examples\/package\.json$/.test(
        file,
      ),
    );
    assert.deepEqual(unwanted, [], 'the archive holds no tests, benchmarks, scripts or build products');
  });

  test('the installed package has the bundled skill and both bins', () => {
    assert.ok(existsSync(join(installed, 'skills', 'stratos-workflows', 'SKILL.md')));
    const bins = join(dirname(dirname(installed)), '.bin');
    assert.ok(existsSync(join(bins, 'stratos')), 'node_modules/.bin/stratos');
    assert.ok(existsSync(join(bins, 'st')), 'node_modules/.bin/st');
  });

  test('root --help prints the installed SKILL.md with its absolute path', () => {
    const skill = join(installed, 'skills', 'stratos-workflows', 'SKILL.md');
    const result = stratos(['--help']);
    assert.equal(result.status, 0, result.stderr);
    assert.ok(result.stdout.includes(readFileSync(skill, 'utf8')), 'help ends with the skill text');
    assert.ok(result.stdout.includes(skill), 'help names the absolute path of the skill');
  });

  test('the installed bin builds and runs the shipped example', () => {
    const build = stratos(['build', 'pr-review', '--json']);
    assert.equal(build.status, 0, build.stdout + build.stderr);
    const built = JSON.parse(build.stdout);
    assert.equal(built.ok, true);
    assert.equal(built.data.workflows[0].status, 'built');
    assert.deepEqual(built.data.workflows[0].diagnostics, []);

    const input = '{"repo":"org/repo","pr_number":42}';
    const human = stratos(['run', 'pr-review', '--input', input]);
    assert.equal(human.status, 0, human.stderr);
    assert.deepEqual(JSON.parse(human.stdout), {summary: 'Review requested for org/repo#42'});

    const json = stratos(['run', 'pr-review', '--input', input, '--json']);
    assert.equal(json.status, 0, json.stderr);
    const envelope = JSON.parse(json.stdout);
    assert.equal(envelope.ok, true);
    assert.deepEqual(envelope.data.output, {summary: 'Review requested for org/repo#42'});
  });

  test('stratos new from the installed package: each template builds and its saved case passes, no harness SDK installed', async () => {
    const env = {...project.env, OLLAMA_HOST: `http://127.0.0.1:${await findClosedPort()}`};
    for (const template of ['basic', 'mcp', 'agent', 'decision']) {
      const name = `new-${template}`;
      for (const args of [
        ['new', name, '--template', template],
        ['build', name],
        ['test', name],
      ]) {
        const result = spawnSync(process.execPath, [bin, ...args, '--json'], {
          cwd: project.cwd,
          env,
          encoding: 'utf8',
        });
        assert.equal(result.status, 0, `${args.join(' ')}: ${result.stdout}${result.stderr}`);
      }
    }
  });

  test('provider status of the installed package: no harness SDK is installed, each with its install command', () => {
    const result = stratos(['provider', 'status', '--json']);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    const {harnesses} = JSON.parse(result.stdout).data;
    for (const harness of harnesses) {
      assert.equal(harness.installed, false, `${harness.harness} is an optional peer, not installed here`);
      assert.ok(harness.install.startsWith(`npm install ${harness.package}`), harness.install);
    }
  });

  test("the discovery root's shared SDK is the installed package", () => {
    const link = join(project.cwd, '.stratos', 'workflows', 'node_modules', '@stratoscli', 'stratos');
    assert.equal(realpathSync(link), realpathSync(installed));
  });

  test('the installed bin serves the runs page from the files the package ships', async () => {
    const page = await startRunsPage(['--no-browser'], {cwd: project.cwd, env: project.env, bin});
    try {
      for (const [path, type] of [
        ['', 'text/html; charset=utf-8'],
        ['app.js', 'text/javascript; charset=utf-8'],
        ['waterfall.js', 'text/javascript; charset=utf-8'],
        ['style.css', 'text/css; charset=utf-8'],
        ['api/runs', 'application/json; charset=utf-8'],
      ]) {
        const response = await fetch(`${page.url}${path}`);
        assert.equal(response.status, 200, path);
        assert.equal(response.headers.get('content-type'), type, path);
      }
    } finally {
      assert.equal((await page.stop()).exitCode, 0);
    }
  });
});
