// `stratos skill` against awkward file systems: a read-only skills folder, a skills folder that is itself a link
// (and one that links to nowhere), and links left broken or outdated after the package moved. Real symlinks,
// real CLI copies, a temporary home.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {chmod, cp, mkdir, readdir, rename, symlink} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {afterEach, beforeEach, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createSkillHome, entryAt, repoSkill, type SkillHome} from '../../helpers/skill-home.ts';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const isRoot = process.getuid?.() === 0;

let h: SkillHome;
const immutable: string[] = [];
beforeEach(async () => {
  h = await createSkillHome();
});
afterEach(async () => {
  for (const folder of immutable.splice(0)) setImmutable(folder, false);
  await h.remove();
});

/**
 * Makes a folder read-only for this user: mode 0555, and for root (whom modes do not stop) the immutable
 * attribute as well, which makes link creation and removal fail with EPERM.
 */
async function makeReadOnly(folder: string): Promise<void> {
  await chmod(folder, 0o555);
  if (isRoot) {
    setImmutable(folder, true);
    immutable.push(folder);
  }
}

function setImmutable(folder: string, on: boolean): void {
  execFileSync('chattr', [on ? '+i' : '-i', folder]);
}

async function makeWritable(folder: string): Promise<void> {
  if (isRoot) {
    setImmutable(folder, false);
    immutable.splice(immutable.indexOf(folder), 1);
  }
  await chmod(folder, 0o755);
}

test('a read-only skills folder fails install with the fix, records nothing, and works once writable', async () => {
  const folder = dirname(h.paths['claude-code']);
  await mkdir(folder, {recursive: true});
  await makeReadOnly(folder);
  const result = await h.cli(['skill', 'install', '--agent', 'claude-code,codex', '--json']);
  assert.equal(result.exitCode, 1, result.stdout);
  assert.equal(result.json.error.code, 'STRATOS_SKILL_INSTALL_FAILED');
  assert.match(result.json.error.message, /not installed for claude-code \(it is installed for codex\)/);
  const [claude, codex] = result.json.error.details.agents;
  assert.equal(claude.action, 'failed');
  assert.equal(claude.error.code, 'STRATOS_SKILL_FOLDER_UNUSABLE');
  assert.match(
    claude.error.message,
    /the folder is not writable \((EACCES|EPERM)\)\. Make .* writable for your user/,
  );
  assert.equal(codex.action, 'created', 'the other agent is still installed');
  assert.deepEqual(
    (await h.records())?.links.map((l) => l.agent),
    ['codex'],
  );
  assert.equal(await entryAt(h.paths['claude-code']), undefined);

  await makeWritable(folder);
  const again = await h.cli(['skill', 'install', '--agent', 'claude-code', '--json']);
  assert.equal(again.exitCode, 0, again.stdout);
  assert.equal(again.json.data.agents[0].action, 'created');

  // Uninstall from a folder that became read-only keeps the link and its record, and says why.
  await makeReadOnly(folder);
  const uninstall = await h.cli(['skill', 'uninstall', '--agent', 'claude-code,codex', '--json']);
  assert.equal(uninstall.exitCode, 1);
  assert.equal(uninstall.json.error.code, 'STRATOS_SKILL_UNINSTALL_FAILED');
  assert.deepEqual(
    uninstall.json.error.details.agents.map((a: {agent: string; action: string}) => [a.agent, a.action]),
    [
      ['claude-code', 'failed'],
      ['codex', 'removed'],
    ],
  );
  assert.equal(await entryAt(h.paths['claude-code']), `-> ${repoSkill}`);
  assert.deepEqual(
    (await h.records())?.links.map((l) => l.agent),
    ['claude-code'],
  );
});

test('a skills folder that is itself a link: the skill link goes inside its target and the folder link stays', async () => {
  const dotfiles = join(h.base, 'dotfiles', 'claude-skills');
  await mkdir(dotfiles, {recursive: true});
  await mkdir(join(h.home, '.claude'), {recursive: true});
  await symlink(dotfiles, join(h.home, '.claude', 'skills'));
  const install = await h.cli(['skill', 'install', '--agent', 'claude-code', '--json']);
  assert.equal(install.exitCode, 0, install.stdout);
  assert.equal(install.json.data.agents[0].path, h.paths['claude-code']);
  assert.deepEqual(await readdir(dotfiles), ['stratos-workflows']);
  assert.equal(await entryAt(join(dotfiles, 'stratos-workflows')), `-> ${repoSkill}`);
  const status = await h.cli(['skill', 'status', '--agent', 'claude-code', '--json']);
  assert.equal(status.json.data.agents[0].state, 'installed');
  const uninstall = await h.cli(['skill', 'uninstall', '--agent', 'claude-code', '--json']);
  assert.equal(uninstall.json.data.agents[0].action, 'removed');
  assert.deepEqual(await readdir(dotfiles), []);
  assert.equal(await entryAt(join(h.home, '.claude', 'skills')), `-> ${dotfiles}`);
});

test('a skills folder that links to nowhere is reported with its target, never created', async () => {
  const gone = join(h.base, 'gone', 'skills');
  await mkdir(join(h.home, '.agents'), {recursive: true});
  await symlink(gone, join(h.home, '.agents', 'skills'));
  const result = await h.cli(['skill', 'install', '--agent', 'codex', '--json']);
  assert.equal(result.exitCode, 1);
  const [codex] = result.json.error.details.agents;
  assert.equal(codex.error.code, 'STRATOS_SKILL_FOLDER_UNUSABLE');
  assert.match(
    codex.error.message,
    new RegExp(`is a link to ${gone.replaceAll('/', '\\/')}, which does not exist`),
  );
  assert.equal(await entryAt(gone), undefined);
  const status = await h.cli(['skill', 'status', '--agent', 'codex', '--json']);
  assert.equal(status.exitCode, 0);
  assert.equal(status.json.data.agents[0].state, 'missing');
});

/** A copy of the built package at `folder` (its node_modules links to the repository's): another install. */
async function copyPackage(folder: string): Promise<string> {
  await mkdir(folder, {recursive: true});
  for (const part of ['bin', 'dist', 'skills', 'package.json'])
    await cp(join(repo, part), join(folder, part), {recursive: true});
  await symlink(join(repo, 'node_modules'), join(folder, 'node_modules'));
  return join(folder, 'bin', 'stratos.js');
}

test('after the package moved, the owned link is broken; install re-points it; another copy sees it as outdated', async () => {
  const first = join(h.base, 'prefix-a', 'stratos');
  const bin = await copyPackage(first);
  const install = await h.cli(['skill', 'install', '--agent', 'claude-code,opencode', '--json'], {bin});
  assert.equal(install.exitCode, 0, install.stdout + install.stderr);
  assert.equal(install.json.data.target, join(first, 'skills', 'stratos-workflows'));

  const moved = join(h.base, 'prefix-b', 'stratos');
  await mkdir(dirname(moved), {recursive: true});
  await rename(first, moved);
  const movedBin = join(moved, 'bin', 'stratos.js');
  const status = await h.cli(['skill', 'status', '--json'], {bin: movedBin});
  assert.equal(status.exitCode, 0, status.stdout + status.stderr);
  const states = status.json.data.agents.map((a: {agent: string; state: string}) => [a.agent, a.state]);
  assert.deepEqual(states, [
    ['claude-code', 'broken'],
    ['codex', 'missing'],
    ['opencode', 'broken'],
  ]);
  assert.match(
    status.json.data.agents[0].fix,
    /is gone \(the package moved or was removed\)\. Run 'stratos skill install --agent claude-code' to re-point it/,
  );
  const readable = await h.cli(['skill', 'status', '--agent', 'claude-code'], {bin: movedBin});
  assert.match(readable.stdout, /^claude-code +broken +/m);

  const repair = await h.cli(['skill', 'install', '--agent', 'claude-code', '--json'], {bin: movedBin});
  assert.equal(repair.exitCode, 0, repair.stdout);
  assert.equal(repair.json.data.agents[0].action, 'repointed');
  assert.equal(repair.json.data.agents[0].previousTarget, join(first, 'skills', 'stratos-workflows'));
  assert.equal(await entryAt(h.paths['claude-code']), `-> ${join(moved, 'skills', 'stratos-workflows')}`);

  // The repository's own CLI is another copy: the link still works, but points elsewhere.
  const other = await h.cli(['skill', 'status', '--agent', 'claude-code', '--json']);
  assert.equal(other.json.data.agents[0].state, 'outdated');
  const repoint = await h.cli(['skill', 'install', '--agent', 'claude-code', '--json']);
  assert.equal(repoint.json.data.agents[0].action, 'repointed');
  assert.equal(await entryAt(h.paths['claude-code']), `-> ${repoSkill}`);

  // A broken link Stratos owns can also just be removed.
  const uninstall = await h.cli(['skill', 'uninstall', '--agent', 'opencode', '--json']);
  assert.equal(uninstall.exitCode, 0);
  assert.deepEqual(
    uninstall.json.data.agents.map((a: {action: string; state: string}) => [a.action, a.state]),
    [['removed', 'broken']],
  );
  assert.equal(await entryAt(h.paths.opencode), undefined);
});
