// Workflow-start authentication with several OAuth servers, end to end (real CLI, two real authorization servers,
// real headless Chromium). The browser of the second server's sign-in is a wrapper that, while the sign-in waits,
// looks for held credential locks, runs another Stratos command that writes the credential file, checks that no
// stdio server of the workflow has started, and lets time pass for the first server's stored token (its expiry moves
// under the five-minute margin) before it signs in. The recheck after the last sign-in must catch that token.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {cliPath} from '../../helpers/run-cli.ts';
import {manifest} from '../../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';
import {
  browserCommand,
  browserScript,
  type OAuthTestServers,
  startOAuthServers,
} from '../../servers/oauth/index.ts';
import {
  assertNoSecretsLeaked,
  createOAuthProject,
  type OAuthProject,
  storedSecrets,
} from '../../servers/oauth/project.ts';

const wrapper = `import {spawnSync} from 'node:child_process';
import {existsSync, readdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';

const [configFile, url] = process.argv.slice(2);
const config = JSON.parse(readFileSync(configFile, 'utf8'));
const locks = readdirSync(config.home).filter((name) => name.endsWith('.lock'));
const logout = spawnSync(process.execPath, [config.cli, 'mcp', 'logout', '--name', 'spare', '--json'], {
  cwd: config.cwd,
  env: {...process.env, STRATOS_HOME: config.home},
  encoding: 'utf8',
});
const stdioStarted = existsSync(config.stdioMarker);
// Time passes during this sign-in: the first server's token now has four minutes left.
const file = join(config.home, 'credentials.json');
const data = JSON.parse(readFileSync(file, 'utf8'));
for (const record of data.records)
  if (record.serverUrl === config.firstServerUrl) record.expiresAt = Math.floor(Date.now() / 1000) + 240;
writeFileSync(file + '.wrapper', JSON.stringify(data), {mode: 0o600});
renameSync(file + '.wrapper', file);
writeFileSync(config.report, JSON.stringify({locks, logout: logout.status, logoutOutput: logout.stdout + logout.stderr, stdioStarted}));
const signIn = spawnSync(config.browser[0], [...config.browser.slice(1), url], {stdio: 'inherit'});
process.exit(signIn.status ?? 1);
`;

let first: OAuthTestServers;
let second: OAuthTestServers;
let project: OAuthProject;
let stdioMarker: string;

before(async () => {
  first = await startOAuthServers();
  second = await startOAuthServers();
  project = await createOAuthProject(first.mcpUrl);
  // Two OAuth servers, and a stdio server that leaves a marker when it starts (never, here: the body does not use
  // it). Another workflow declares 'spare', an OAuth server with no credentials: logging it out rewrites the file.
  stdioMarker = join(project.cwd, 'stdio-started');
  const stdioArgs = [
    '-c',
    'touch "$0"; exec "$@"',
    stdioMarker,
    process.execPath,
    SERVE_SCRIPT,
    'counter',
    '--stdio',
  ];
  await project.writeWorkflow('uses-stratum', {
    'workflow.yaml': manifest(
      'uses-stratum',
      `mcp:
  servers:
    stratum:
      type: http
      url: ${first.mcpUrl}
      auth:
        type: oauth
    second:
      type: http
      url: ${second.mcpUrl}
      auth:
        type: oauth
    local:
      type: stdio
      command: /bin/sh
      args: ${JSON.stringify(stdioArgs)}
`,
    ),
  });
  await project.writeWorkflow('spare-holder', {
    'workflow.yaml': manifest(
      'spare-holder',
      'mcp:\n  servers:\n    spare:\n      type: http\n      url: http://127.0.0.1:1/mcp\n      auth:\n        type: oauth\n',
    ),
  });
});

after(async () => {
  await assertNoSecretsLeaked(project, await storedSecrets(project).catch(() => ['no-secret-stored']));
  await project.remove();
  await first.close();
  await second.close();
});

test('preflight signs in without holding a lock, starts no stdio server, and rechecks every token after the last sign-in', async () => {
  const login = await project.run(['mcp', 'login', '--name', 'stratum', '--json'], {
    BROWSER: browserCommand({user: 'alice'}),
  });
  assert.equal(login.exitCode, 0, login.stderr);

  const report = join(project.cwd, 'wrapper-report.json');
  const configFile = join(project.cwd, 'wrapper-config.json');
  const wrapperFile = join(project.cwd, 'browser-wrapper.mjs');
  await writeFile(wrapperFile, wrapper);
  await writeFile(
    configFile,
    JSON.stringify({
      home: project.home,
      cwd: project.cwd,
      cli: cliPath,
      report,
      stdioMarker,
      firstServerUrl: first.mcpUrl,
      browser: [process.execPath, browserScript, '--user=bob', '--action=approve'],
    }),
  );
  const bodyMarker = join(project.cwd, 'body-ran');
  const run = await project.run(['run', 'uses-stratum', '--input', '{"text":"hi"}', '--json'], {
    BROWSER: `"${process.execPath}" "${wrapperFile}" "${configFile}"`,
    TEST_MARKER: bodyMarker,
  });

  const seen = JSON.parse(await readFile(report, 'utf8'));
  assert.deepEqual(seen.locks, [], 'no credential lock is held while the browser sign-in waits');
  assert.equal(seen.logout, 0, `another command wrote the credential file meanwhile: ${seen.logoutOutput}`);
  assert.equal(seen.stdioStarted, false, 'no stdio server started before the body');

  // The second server signed in and was saved; the first token, now under the margin, stops the run.
  assert.equal(run.exitCode, 1, run.stdout + run.stderr);
  assert.equal(run.json.error.code, 'STRATOS_AUTH_TOKEN_TOO_SHORT');
  assert.match(run.json.error.message, /'stratum'/);
  assert.equal(existsSync(bodyMarker), false, 'the body did not run');
  const {records} = await project.readCredentials();
  assert.ok(
    records.some((record) => record.serverUrl === second.mcpUrl && typeof record.accessToken === 'string'),
  );

  // The next run refreshes the first token at start and runs the body; the stdio server still never starts.
  const refreshes = first.as.tokenRequests.refresh_token ?? 0;
  const again = await project.run(['run', 'uses-stratum', '--input', '{"text":"hi"}', '--json'], {
    BROWSER: 'false',
    TEST_MARKER: bodyMarker,
  });
  assert.equal(again.exitCode, 0, again.stdout + again.stderr);
  assert.equal(first.as.tokenRequests.refresh_token, refreshes + 1);
  assert.ok(existsSync(bodyMarker));
  assert.equal(existsSync(stdioMarker), false);
});
