// The README's install-from-source lines, run as written in a fresh clone of this repository, on the machine's own
// npm and a PATH without this test's Node 24, with a new HOME. Two differences from a user's machine: npm's global
// folder is a temporary one (npm_config_prefix), so the test writes nothing outside its folder, and the clone's
// node_modules are hard links to this checkout's (the files `npm install` would download, without 2 GB of
// copying); `npm install` still runs and checks them. Then the global `stratos` builds and runs the quickstart's
// workflow from a project folder.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync, realpathSync} from 'node:fs';
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {manifest} from '../../helpers/temp-project.ts';

const repository = fileURLToPath(new URL('../../..', import.meta.url));
const readme = readFileSync(join(repository, 'README.md'), 'utf8');
let base: string;
let env: NodeJS.ProcessEnv;

/** The shell lines between the README's install-from-source markers. */
function installLines(): string {
  const block =
    /<!-- install-from-source[^>]*-->\s*```sh\n([\s\S]*?)```\s*<!-- \/install-from-source -->/.exec(readme);
  assert.ok(block, 'the README has no install-from-source block');
  return block[1] as string;
}

function shell(script: string, cwd: string) {
  // stdin is not a socket: bash would take a socket for a remote shell and read the system bashrc.
  return spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 600_000,
  });
}

before(async () => {
  base = realpathSync(await mkdtemp(join(tmpdir(), 'stratos-readme-install-')));
  await mkdir(join(base, 'home'));
  // The machine's PATH as a new login shell would have it: no node_modules/.bin, not this test's Node 24.
  const systemPath = (process.env.PATH ?? '')
    .split(':')
    .filter(
      (folder) =>
        folder.startsWith('/') && !folder.includes('node_modules') && !folder.startsWith(repository),
    )
    .filter((folder) => !existsSync(join(folder, 'node')) || folder.startsWith('/usr') || folder === '/bin')
    .join(':');
  // npm reads its global configuration (such as the machine's CA file) from under the prefix unless told where,
  // and its download cache from under HOME: both stay the machine's, as package.test.ts's npm calls have them.
  // Asked on the machine's PATH: npm derives the global configuration's place from the Node that runs it.
  const npmConfig = (key: string) =>
    spawnSync('npm', ['config', 'get', key], {
      env: {...process.env, PATH: systemPath},
      encoding: 'utf8',
    }).stdout.trim();
  env = {
    PATH: `${join(base, 'global', 'bin')}:${systemPath}`,
    npm_config_prefix: join(base, 'global'),
    npm_config_globalconfig: npmConfig('globalconfig'),
    npm_config_cache: npmConfig('cache'),
    HOME: join(base, 'home'),
    STRATOS_HOME: join(base, 'stratos-home'),
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    CI: '1',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  const clone = spawnSync('git', ['clone', '-q', repository, join(base, 'stratos')], {encoding: 'utf8'});
  assert.equal(clone.status, 0, clone.stderr);
  const link = spawnSync('cp', [
    '-al',
    join(repository, 'node_modules'),
    join(base, 'stratos', 'node_modules'),
  ]);
  assert.equal(link.status, 0, String(link.stderr));
});

after(async () => {
  await rm(base, {recursive: true, force: true});
});

test("the README's install-from-source lines give a global stratos that runs a workflow on Node 24", async () => {
  const installed = shell(installLines(), join(base, 'stratos'));
  assert.equal(installed.status, 0, `${installed.stdout}\n${installed.stderr}`);
  const version = JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8')).version as string;
  assert.match(installed.stdout, new RegExp(`^${version.replaceAll('.', '\\.')}$`, 'm'));

  const project = join(base, 'project');
  const folder = join(project, '.stratos', 'workflows', 'greet');
  await mkdir(folder, {recursive: true});
  await writeFile(join(folder, 'workflow.yaml'), manifest('greet'));
  await writeFile(
    join(folder, 'workflow.ts'),
    `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({name: z.string().describe('Who to greet')}),
  output: z.object({greeting: z.string().describe('The greeting')}),
  run({name}) {
    return {greeting: \`Hello, \${name}!\`};
  },
});
`,
  );
  // The PATH the README's lines set up, in a new shell: the clone's Node 24 first, then the global commands.
  const ran = shell(
    `export PATH="${join(base, 'stratos', 'node_modules', 'node', 'bin')}:$PATH"; node --version; stratos run greet --input '{"name":"Ada"}' --json`,
    project,
  );
  assert.equal(ran.status, 0, `${ran.stdout}\n${ran.stderr}`);
  const [nodeVersion, envelope] = ran.stdout.split('\n');
  assert.match(nodeVersion ?? '', /^v24\./);
  assert.deepEqual(JSON.parse(envelope ?? '').data.output, {greeting: 'Hello, Ada!'});
});
