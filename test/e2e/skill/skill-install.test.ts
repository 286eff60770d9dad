// `stratos skill install | status | uninstall` end to end: the real CLI in a temporary home, real symlinks, and
// entries Stratos did not make (a folder, a file, a hand-made link, a link someone replaced) that it never touches.
import assert from 'node:assert/strict';
import {mkdir, readdir, readFile, rm, symlink, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {afterEach, beforeEach, test} from 'node:test';
import {createSkillHome, entryAt, repoSkill, type SkillHome} from '../../helpers/skill-home.ts';

let h: SkillHome;
beforeEach(async () => {
  h = await createSkillHome();
});
afterEach(async () => {
  await h.remove();
});

test('install --agent links the bundled skill into each selected folder and records it; status reads it back', async () => {
  const result = await h.cli(['skill', 'install', '--agent', 'claude-code,codex', '--json']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.equal(result.json.ok, true);
  assert.equal(result.json.message, 'Installed for 2 agents (2 links created or re-pointed)');
  assert.deepEqual(
    result.json.data.agents.map((a: {agent: string; action: string; path: string}) => [
      a.agent,
      a.action,
      a.path,
    ]),
    [
      ['claude-code', 'created', h.paths['claude-code']],
      ['codex', 'created', h.paths.codex],
    ],
  );
  assert.equal(result.json.data.target, repoSkill);
  assert.equal(await entryAt(h.paths['claude-code']), `-> ${repoSkill}`);
  assert.equal(await entryAt(h.paths.codex), `-> ${repoSkill}`);
  assert.equal(await entryAt(h.paths.opencode), undefined, 'an agent not selected is not touched');
  // The link is a real one: the skill reads through it.
  assert.match(
    await readFile(join(h.paths['claude-code'], 'SKILL.md'), 'utf8'),
    /^---\nname: stratos-workflows\n/,
  );
  const records = await h.records();
  assert.deepEqual(
    records?.links.map((l) => [l.agent, l.path, l.target]),
    [
      ['claude-code', h.paths['claude-code'], repoSkill],
      ['codex', h.paths.codex, repoSkill],
    ],
  );
  // Nothing else is written: STRATOS_HOME holds only the records, each skills folder only the link.
  assert.deepEqual(await readdir(h.stratosHome), ['skill-links.json']);
  assert.deepEqual(await readdir(dirname(h.paths['claude-code'])), ['stratos-workflows']);

  const status = await h.cli(['skill', 'status', '--json']);
  assert.equal(status.exitCode, 0, status.stderr);
  assert.equal(status.json.message, 'Installed for 2 of 3 agents');
  assert.deepEqual(
    status.json.data.agents.map((a: {agent: string; state: string; owned: boolean}) => [
      a.agent,
      a.state,
      a.owned,
    ]),
    [
      ['claude-code', 'installed', true],
      ['codex', 'installed', true],
      ['opencode', 'missing', false],
    ],
  );
  assert.equal(status.json.data.agents[2].fix, "Run 'stratos skill install --agent opencode'.");

  const readable = await h.cli(['skill', 'status']);
  assert.equal(readable.exitCode, 0);
  assert.match(
    readable.stdout,
    new RegExp(
      `^claude-code +installed +${escapeRegExp(h.paths['claude-code'])} -> ${escapeRegExp(repoSkill)}$`,
      'm',
    ),
  );
  assert.match(readable.stdout, /^opencode +missing /m);
});

test('install again changes nothing; --all adds the rest; uninstall --all removes only the links and records', async () => {
  assert.equal((await h.cli(['skill', 'install', '--agent', 'codex'])).exitCode, 0);
  const again = await h.cli(['skill', 'install', '--agent', 'codex', '--json']);
  assert.equal(again.exitCode, 0);
  assert.equal(again.json.message, 'Already installed for 1 agent');
  assert.equal(again.json.data.agents[0].action, 'unchanged');

  const all = await h.cli(['skill', 'install', '--all']);
  assert.equal(all.exitCode, 0, all.stderr);
  assert.match(all.stdout, /^claude-code +created /m);
  assert.match(all.stdout, /^codex +already installed: /m);
  assert.match(all.stdout, /^opencode +created /m);
  assert.equal((await h.records())?.links.length, 3);

  const removed = await h.cli(['skill', 'uninstall', '--all', '--json']);
  assert.equal(removed.exitCode, 0, removed.stdout);
  assert.equal(removed.json.message, 'Removed 3 links');
  assert.deepEqual(removed.json.warnings, []);
  for (const path of Object.values(h.paths)) {
    assert.equal(await entryAt(path), undefined);
    assert.equal(await entryAt(dirname(path)), 'directory', 'the skills folder itself stays');
  }
  assert.deepEqual((await h.records())?.links, []);
  assert.match(
    await readFile(join(repoSkill, 'SKILL.md'), 'utf8'),
    /name: stratos-workflows/,
    'the bundle stays',
  );

  const nothing = await h.cli(['skill', 'uninstall', '--agent', 'codex', '--json']);
  assert.equal(nothing.exitCode, 0);
  assert.equal(nothing.json.message, 'Nothing to remove');
  assert.equal(nothing.json.data.agents[0].action, 'absent');
});

test('entries Stratos did not make are never replaced or removed, and are reported with the fix', async () => {
  // claude-code: a real skill folder of the same name; codex: a hand-made link elsewhere; opencode: a file.
  const own = h.paths['claude-code'];
  await mkdir(own, {recursive: true});
  await writeFile(join(own, 'SKILL.md'), '---\nname: stratos-workflows\ndescription: my own copy\n---\n');
  const elsewhere = join(h.base, 'my-skills', 'stratos-workflows');
  await mkdir(elsewhere, {recursive: true});
  await mkdir(dirname(h.paths.codex), {recursive: true});
  await symlink(elsewhere, h.paths.codex);
  await mkdir(dirname(h.paths.opencode), {recursive: true});
  await writeFile(h.paths.opencode, 'a file\n');

  const install = await h.cli(['skill', 'install', '--all', '--json']);
  assert.equal(install.exitCode, 1);
  assert.equal(install.json.ok, false);
  assert.equal(install.json.error.code, 'STRATOS_SKILL_INSTALL_FAILED');
  assert.match(install.json.error.message, /not installed for claude-code, codex, opencode/);
  const outcomes = install.json.error.details.agents;
  assert.deepEqual(
    outcomes.map((o: {action: string; state: string; error: {code: string}}) => [
      o.action,
      o.state,
      o.error.code,
    ]),
    [
      ['failed', 'foreign', 'STRATOS_SKILL_FOREIGN_ENTRY'],
      ['failed', 'foreign', 'STRATOS_SKILL_FOREIGN_ENTRY'],
      ['failed', 'foreign', 'STRATOS_SKILL_FOREIGN_ENTRY'],
    ],
  );
  assert.match(outcomes[0].error.message, /Stratos did not make the directory .*move it away yourself/);
  assert.equal(
    await readFile(join(own, 'SKILL.md'), 'utf8'),
    '---\nname: stratos-workflows\ndescription: my own copy\n---\n',
  );
  assert.equal(await entryAt(h.paths.codex), `-> ${elsewhere}`);
  assert.equal(await readFile(h.paths.opencode, 'utf8'), 'a file\n');
  assert.equal(await h.records(), undefined, 'nothing was recorded');

  const readable = await h.cli(['skill', 'install', '--agent', 'codex']);
  assert.equal(readable.exitCode, 1);
  assert.match(readable.stderr, /^codex +not installed \(STRATOS_SKILL_FOREIGN_ENTRY\)$/m);
  assert.match(readable.stderr, /^error STRATOS_SKILL_INSTALL_FAILED: .*Stratos did not make the link/m);

  const status = await h.cli(['skill', 'status', '--json']);
  assert.deepEqual(
    status.json.data.agents.map((a: {state: string; entry: string; owned: boolean}) => [
      a.state,
      a.entry,
      a.owned,
    ]),
    [
      ['foreign', 'directory', false],
      ['foreign', 'link', false],
      ['foreign', 'file', false],
    ],
  );

  const uninstall = await h.cli(['skill', 'uninstall', '--all', '--json']);
  assert.equal(uninstall.exitCode, 0, 'entries that are not ours are reported, not failures');
  assert.deepEqual(
    uninstall.json.data.agents.map((a: {action: string}) => a.action),
    ['kept-foreign', 'kept-foreign', 'kept-foreign'],
  );
  assert.deepEqual(
    uninstall.json.warnings.map((w: {code: string}) => w.code),
    ['STRATOS_SKILL_FOREIGN_KEPT', 'STRATOS_SKILL_FOREIGN_KEPT', 'STRATOS_SKILL_FOREIGN_KEPT'],
  );
  assert.equal(
    await readFile(join(own, 'SKILL.md'), 'utf8'),
    '---\nname: stratos-workflows\ndescription: my own copy\n---\n',
  );
  assert.equal(await entryAt(h.paths.codex), `-> ${elsewhere}`);
  assert.equal(await readFile(h.paths.opencode, 'utf8'), 'a file\n');
});

test('a link to the bundled skill that Stratos did not make is not ours either; one we made and someone replaced is no longer ours', async () => {
  await mkdir(dirname(h.paths.codex), {recursive: true});
  await symlink(repoSkill, h.paths.codex);
  const status = await h.cli(['skill', 'status', '--agent', 'codex', '--json']);
  assert.equal(status.json.data.agents[0].state, 'foreign');
  assert.match(
    status.json.data.agents[0].fix,
    /already points at this package's skill but Stratos did not make it/,
  );
  assert.equal((await h.cli(['skill', 'uninstall', '--agent', 'codex'])).exitCode, 0);
  assert.equal(await entryAt(h.paths.codex), `-> ${repoSkill}`, 'left in place');

  assert.equal((await h.cli(['skill', 'install', '--agent', 'claude-code'])).exitCode, 0);
  const mine = join(h.base, 'mine');
  await mkdir(mine);
  await rm(h.paths['claude-code']);
  await symlink(mine, h.paths['claude-code']);
  const after = await h.cli(['skill', 'status', '--agent', 'claude-code', '--json']);
  assert.equal(after.json.data.agents[0].state, 'foreign');
  assert.equal(after.json.data.agents[0].linkTarget, mine);
  const uninstall = await h.cli(['skill', 'uninstall', '--agent', 'claude-code', '--json']);
  assert.equal(uninstall.exitCode, 0);
  assert.equal(uninstall.json.data.agents[0].action, 'kept-foreign');
  assert.equal(await entryAt(h.paths['claude-code']), `-> ${mine}`);
  assert.deepEqual(
    (await h.records())?.links,
    [],
    'the record that no longer describes the entry is dropped',
  );
});

test('CLAUDE_CONFIG_DIR and XDG_CONFIG_HOME move the Claude Code and OpenCode folders, as the binaries read them', async () => {
  const env = {CLAUDE_CONFIG_DIR: join(h.base, 'claude-config'), XDG_CONFIG_HOME: join(h.base, 'xdg')};
  const result = await h.cli(['skill', 'install', '--agent', 'claude-code,opencode', '--json'], {env});
  assert.equal(result.exitCode, 0, result.stdout);
  assert.deepEqual(
    result.json.data.agents.map((a: {path: string}) => a.path),
    [
      join(env.CLAUDE_CONFIG_DIR, 'skills', 'stratos-workflows'),
      join(env.XDG_CONFIG_HOME, 'opencode', 'skills', 'stratos-workflows'),
    ],
  );
  // Without those variables the agents' folders are elsewhere; the records still show where Stratos linked.
  const status = await h.cli(['skill', 'status', '--agent', 'claude-code', '--json']);
  assert.deepEqual(
    status.json.data.agents.map((a: {state: string; current: boolean; path: string}) => [
      a.state,
      a.current,
      a.path,
    ]),
    [
      ['missing', true, h.paths['claude-code']],
      ['installed', false, join(env.CLAUDE_CONFIG_DIR, 'skills', 'stratos-workflows')],
    ],
  );
  const uninstall = await h.cli(['skill', 'uninstall', '--agent', 'claude-code', '--json']);
  assert.equal(uninstall.exitCode, 0);
  assert.deepEqual(
    uninstall.json.data.agents.map((a: {action: string}) => a.action),
    ['absent', 'removed'],
  );
  assert.equal(await entryAt(join(env.CLAUDE_CONFIG_DIR, 'skills', 'stratos-workflows')), undefined);
});

test('usage: --agent or --all is required, not both, and names are checked before anything changes', async () => {
  for (const args of [
    ['skill', 'install'],
    ['skill', 'install', '--agent', 'codex', '--all'],
    ['skill', 'install', '--agent', 'codex,cursor'],
    ['skill', 'uninstall'],
    ['skill', 'install', '--agent', ','],
  ]) {
    const result = await h.cli([...args, '--json']);
    assert.equal(result.exitCode, 1, args.join(' '));
    assert.equal(result.json.error.code, 'STRATOS_CLI_USAGE', args.join(' '));
  }
  const unknown = await h.cli(['skill', 'install', '--agent', 'codex,cursor']);
  assert.match(unknown.stderr, /Unknown agent 'cursor' .*claude-code, codex, opencode/);
  assert.equal(await entryAt(h.paths.codex), undefined);
  const help = await h.cli(['skill', 'install', '--help']);
  assert.equal(help.exitCode, 0);
  assert.match(help.stdout, /--agent <names> +Comma-separated agents: claude-code, codex, opencode\./);
});

test('a malformed records file is an error and is left as it is', async () => {
  await mkdir(h.stratosHome, {recursive: true});
  await writeFile(join(h.stratosHome, 'skill-links.json'), '{"version": 2}');
  for (const args of [['install', '--all'], ['status'], ['uninstall', '--all']]) {
    const result = await h.cli(['skill', ...args, '--json']);
    assert.equal(result.exitCode, 1, args[0]);
    assert.equal(result.json.error.code, 'STRATOS_SKILL_RECORDS_INVALID', args[0]);
    assert.match(
      result.json.error.message,
      /skill-links\.json cannot be used: .*left as it is; move it away/,
    );
  }
  assert.equal(await readFile(join(h.stratosHome, 'skill-links.json'), 'utf8'), '{"version": 2}');
  assert.equal(await entryAt(h.paths.codex), undefined);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
