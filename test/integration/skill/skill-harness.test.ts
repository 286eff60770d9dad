// The harness sees the installed skill: after `stratos skill install`, the real binaries, started in an isolated
// home against scripted model servers, list `stratos-workflows` among their discovered skills (Claude Code in its
// session start message and in the request it sends, Codex in the request's skills list, OpenCode in
// `opencode debug skill`). Before install and after uninstall they do not, so the check can fail.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {access, mkdir, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {runCli} from '../../helpers/run-cli.ts';
import {type AnthropicServer, startAnthropicServer} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';
import {type ResponsesServer, startResponsesServer} from '../../servers/models/openai-responses.ts';

const require = createRequire(import.meta.url);
const repo = fileURLToPath(new URL('../../..', import.meta.url));
const claudeBinary = join(
  dirname(require.resolve('@anthropic-ai/claude-agent-sdk-linux-x64/package.json')),
  'claude',
);
const codexBinary = join(
  dirname(require.resolve('@openai/codex-linux-x64/package.json')),
  'vendor',
  'x86_64-unknown-linux-musl',
  'bin',
  'codex',
);
const description = 'Find, run and write Stratos workflows';

let anthropic: AnthropicServer;
let responses: ResponsesServer;
let home: HarnessHome;
let work: string;

before(async () => {
  anthropic = await startAnthropicServer(() => ({text: 'ok'}));
  responses = await startResponsesServer(() => ({text: 'ok'}));
  home = await createHarnessHome({anthropicUrl: anthropic.url, openaiUrl: responses.url});
  home.env.STRATOS_HOME = join(home.base, 'stratos-home');
  home.env.XDG_CONFIG_HOME = join(home.base, 'xdg');
  work = join(home.base, 'work');
  await mkdir(work, {recursive: true});
  await writeFile(
    join(home.env.CODEX_HOME!, 'config.toml'),
    [
      'model = "gpt-test"',
      'model_provider = "scripted"',
      '[model_providers.scripted]',
      'name = "scripted"',
      `base_url = "${responses.url}/v1"`,
      'env_key = "OPENAI_API_KEY"',
      'wire_api = "responses"',
      '[analytics]',
      'enabled = false',
      '[features]',
      'plugins = false',
      '',
    ].join('\n'),
  );
});

after(async () => {
  await anthropic?.close();
  await responses?.close();
  assert.deepEqual(await survivingProcesses(home.marker), [], 'a harness process outlived its test');
  await home?.remove();
});

function stratos(args: string[]) {
  return runCli(args, {cwd: work, env: home.env});
}

function runBinary(binary: string, args: string[], env: Record<string, string> = home.env) {
  return new Promise<{code: number | null; stdout: string; stderr: string}>((resolve) => {
    const child = spawn(binary, args, {cwd: work, env, stdio: ['ignore', 'pipe', 'pipe']});
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({code, stdout, stderr});
    });
  });
}

/** Runs `claude -p` once; returns the skills of its session start message and the text of its model requests. */
async function claudeSession(): Promise<{skills: string[]; requestText: string}> {
  const before = anthropic.modelRequests().length;
  const result = await runBinary(claudeBinary, [
    '-p',
    'hello',
    '--output-format',
    'stream-json',
    '--verbose',
  ]);
  assert.equal(result.code, 0, result.stderr);
  const init = result.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .find((message) => message.type === 'system' && message.subtype === 'init');
  assert.ok(init, `no system/init message in ${result.stdout.slice(0, 500)}`);
  const requests = anthropic.modelRequests().slice(before);
  assert.ok(requests.length > 0, 'claude sent no model request');
  return {skills: init.skills, requestText: JSON.stringify(requests.map((r) => r.body))};
}

test('Claude Code lists stratos-workflows in its session start message and its request once installed', async () => {
  const without = await claudeSession();
  assert.ok(!without.skills.includes('stratos-workflows'));
  assert.ok(!without.requestText.includes(description));

  const install = await stratos(['skill', 'install', '--agent', 'claude-code', '--json']);
  assert.equal(install.exitCode, 0, install.stdout);
  assert.equal(
    install.json.data.agents[0].path,
    join(home.env.CLAUDE_CONFIG_DIR!, 'skills', 'stratos-workflows'),
  );
  const withSkill = await claudeSession();
  assert.ok(withSkill.skills.includes('stratos-workflows'), `skills: ${withSkill.skills.join(', ')}`);
  // The model is offered the skill by name and description, for its Skill tool.
  assert.ok(withSkill.requestText.includes(`- stratos-workflows: ${description}`));

  assert.equal((await stratos(['skill', 'uninstall', '--agent', 'claude-code'])).exitCode, 0);
  assert.ok(!(await claudeSession()).skills.includes('stratos-workflows'));
});

/** Runs `codex exec` once; returns the text of its model requests. */
async function codexRequestText(): Promise<string> {
  const before = responses.modelRequests().length;
  const result = await runBinary(codexBinary, ['exec', '--skip-git-repo-check', '--json', 'hello']);
  assert.equal(result.code, 0, result.stderr);
  const requests = responses.modelRequests().slice(before);
  assert.ok(requests.length > 0, 'codex sent no model request');
  return JSON.stringify(requests.map((r) => r.body));
}

test('Codex lists stratos-workflows (from ~/.agents/skills) in the skills of its request once installed', async () => {
  assert.ok(!(await codexRequestText()).includes(`stratos-workflows: ${description}`));
  const install = await stratos(['skill', 'install', '--agent', 'codex', '--json']);
  assert.equal(install.exitCode, 0, install.stdout);
  assert.equal(
    install.json.data.agents[0].path,
    join(home.env.HOME!, '.agents', 'skills', 'stratos-workflows'),
  );
  const text = await codexRequestText();
  assert.match(
    text,
    /- stratos-workflows: Find, run and write Stratos workflows[^\n]*\(file: [^)]*stratos-workflows\/SKILL\.md\)/,
  );
  assert.equal((await stratos(['skill', 'uninstall', '--agent', 'codex'])).exitCode, 0);
  assert.ok(!(await codexRequestText()).includes(`stratos-workflows: ${description}`));
});

/** The opencode binary: OPENCODE_BIN, or the one opencode-ai installs into node_modules/.bin. */
async function findOpencode(): Promise<string | undefined> {
  const candidate = process.env.OPENCODE_BIN ?? join(repo, 'node_modules', '.bin', 'opencode');
  return access(candidate).then(
    () => candidate,
    () => undefined,
  );
}

async function opencodeSkills(binary: string): Promise<{name: string; location: string}[]> {
  const env = {
    ...home.env,
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_SHARE: '1',
  };
  const result = await runBinary(binary, ['debug', 'skill'], env);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test('OpenCode lists stratos-workflows (from <XDG config>/opencode/skills) in `opencode debug skill`', async (t) => {
  const binary = await findOpencode();
  if (binary === undefined) {
    t.skip('opencode-ai is not installed in node_modules (set OPENCODE_BIN to check another copy)');
    return;
  }
  assert.ok(!(await opencodeSkills(binary)).some((s) => s.name === 'stratos-workflows'));
  const install = await stratos(['skill', 'install', '--agent', 'opencode', '--json']);
  assert.equal(install.exitCode, 0, install.stdout);
  const path = join(home.env.XDG_CONFIG_HOME!, 'opencode', 'skills', 'stratos-workflows');
  assert.equal(install.json.data.agents[0].path, path);
  const found = (await opencodeSkills(binary)).find((s) => s.name === 'stratos-workflows');
  assert.equal(found?.location, join(path, 'SKILL.md'));
  assert.equal((await stratos(['skill', 'uninstall', '--agent', 'opencode'])).exitCode, 0);
});
