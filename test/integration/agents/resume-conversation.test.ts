// Resume with the real harness binaries: a run killed with SIGKILL while its agent's third of four turns is in
// flight is resumed; the scripted model server sees exactly the remaining turns, the first of them continuing the
// same native conversation (Codex thread, Claude Code session, OpenCode session: the earlier turns are in its
// input), and the output equals an uninterrupted run's. An OpenCode session removed from OpenCode's data folder
// fails the resumed agent with STRATOS_RESUME_CONVERSATION_UNSUPPORTED before any request.
import assert from 'node:assert/strict';
import {mkdir, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {startCli, waitUntil} from '../../helpers/killable-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {isMainTurn, startAnthropicServer} from '../../servers/models/anthropic.ts';
import {createHarnessHome, findMarkedProcesses, type HarnessHome} from '../../servers/models/harness-env.ts';
import {startChatServer} from '../../servers/models/openai-chat.ts';
import {startResponsesServer} from '../../servers/models/openai-responses.ts';

const source = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({turns: z.number().describe('How many turns')}),
  output: z.object({answers: z.array(z.string()).describe('Each reply')}),
  async run({turns}) {
    const agent = createAgent('main');
    const answers: string[] = [];
    for (let i = 1; i <= turns; i++) answers.push(await agent.execute('TURN ' + i));
    return {answers};
  },
});
`;

/** What the test needs of a scripted model server: the prompts of the main conversation and their transcripts. */
interface ScriptedServer {
  url: string;
  turns(): {prompt: string; transcript: string}[];
  close(): Promise<void>;
}

/** The reply to `TURN n`: `ANSWER n`, except that turn 3 hangs until released. */
type Reply = {text: string} | {hang: true};
const replyTo = (prompt: string, released: boolean): Reply => {
  const n = /TURN (\d+)/.exec(prompt)?.[1];
  if (n === undefined) return {text: 'no turn'};
  return n === '3' && !released ? {hang: true} : {text: `ANSWER ${n}`};
};

const drivers: {
  harness: string;
  agent: string;
  start(released: () => boolean): Promise<ScriptedServer>;
  home(url: string): Promise<HarnessHome>;
}[] = [
  {
    harness: 'codex',
    agent: 'harness: codex\n    model: gpt-test',
    async start(released) {
      const server = await startResponsesServer((turn) => replyTo(turn.userText, released()));
      return {
        url: server.url,
        turns: () => server.turns().map((t) => ({prompt: t.userText, transcript: t.transcript})),
        close: () => server.close(),
      };
    },
    home: (url) => createHarnessHome({openaiUrl: url}),
  },
  {
    harness: 'claude-code',
    agent: 'harness: claude-code',
    async start(released) {
      const server = await startAnthropicServer((turn) =>
        isMainTurn(turn) ? replyTo(turn.lastText, released()) : {text: 'side'},
      );
      return {
        url: server.url,
        turns: () =>
          server
            .turns()
            .filter(isMainTurn)
            .map((t) => ({prompt: t.lastText, transcript: t.transcript})),
        close: () => server.close(),
      };
    },
    home: (url) => createHarnessHome({anthropicUrl: url}),
  },
  {
    harness: 'opencode',
    agent: 'harness: opencode\n    model: openai/gpt-test',
    async start(released) {
      // OpenCode's title request offers no tools; the conversation's requests do.
      const isMain = (turn: {toolNames: string[]}) => turn.toolNames.length > 0;
      const server = await startChatServer((turn) =>
        isMain(turn) ? replyTo(turn.userText, released()) : {text: 'title'},
      );
      return {
        url: server.url,
        turns: () =>
          server
            .turns()
            .filter(isMain)
            .map((t) => ({prompt: t.userText, transcript: t.transcript})),
        close: () => server.close(),
      };
    },
    async home(url) {
      const home = await createHarnessHome({openaiUrl: url}, {xdg: true});
      await plantOpenCodePlugin(join(home.env.XDG_CONFIG_HOME!, 'opencode'));
      return home;
    },
  },
];

/**
 * OpenCode installs its plugin package into its configuration folder from npm when the folder lacks it (a one-time
 * setup of its own); the folder is made as OpenCode leaves it, so nothing leaves the machine.
 */
async function plantOpenCodePlugin(folder: string): Promise<void> {
  await mkdir(join(folder, 'node_modules'), {recursive: true});
  const dependencies = {'@opencode-ai/plugin': '1.18.33'};
  await writeFile(join(folder, 'package.json'), JSON.stringify({dependencies}));
  await writeFile(
    join(folder, 'package-lock.json'),
    JSON.stringify({lockfileVersion: 3, packages: {'': {dependencies}}}),
  );
}

for (const driver of drivers) {
  describe(driver.harness, () => {
    let released = false;
    let server: ScriptedServer;
    let home: HarnessHome;
    let project: TempProject;

    after(async () => {
      // The killed run's harness process is ours: end it by its id.
      for (const {pid} of await findMarkedProcesses(home.marker)) process.kill(pid, 'SIGKILL');
      await server?.close();
      await project?.remove();
      await home?.remove();
    });

    test(`${driver.harness}: a killed run resumes its agent's conversation, sending only the remaining turns`, async () => {
      server = await driver.start(() => released);
      home = await driver.home(server.url);
      project = await createTempProject(`stratos-resume-${driver.harness}-`);
      await project.writeWorkflow('talk', {
        'workflow.yaml': manifest('talk', `agents:\n  main:\n    ${driver.agent}\n    allowedMcps: []\n`),
        'workflow.ts': source,
      });
      const env = {...project.env, ...home.env};
      const build = await project.cli(['build', 'talk', '--json'], {env});
      assert.equal(build.exitCode, 0, build.stdout + build.stderr);
      const prompts = (from: number) =>
        server
          .turns()
          .slice(from)
          .map((turn) => turn.prompt);

      const started = startCli(['run', 'talk', '--input', '{"turns":4}', '--json'], {cwd: project.cwd, env});
      await waitUntil(() => prompts(0).includes('TURN 3'), started.done);
      started.child.kill('SIGKILL');
      await started.done;
      for (const {pid} of await findMarkedProcesses(home.marker)) process.kill(pid, 'SIGKILL');
      assert.deepEqual(prompts(0), ['TURN 1', 'TURN 2', 'TURN 3']);

      released = true;
      const seen = server.turns().length;
      const listed = await project.cli(['runs', 'list', '--json'], {env});
      const resumed = await project.cli(['runs', 'resume', listed.json.data.runs[0].runId, '--json'], {env});
      assert.equal(resumed.exitCode, 0, resumed.stdout + resumed.stderr);
      assert.deepEqual(resumed.json.data.output, {answers: ['ANSWER 1', 'ANSWER 2', 'ANSWER 3', 'ANSWER 4']});
      assert.deepEqual(prompts(seen), ['TURN 3', 'TURN 4']);
      const continued = server.turns()[seen]!;
      assert.ok(
        continued.transcript.includes('TURN 1') && continued.transcript.includes('ANSWER 2'),
        `the resumed request carries the earlier turns: ${continued.transcript}`,
      );

      // The output equals an uninterrupted run's.
      const fresh = await project.cli(['run', 'talk', '--input', '{"turns":4}', '--json'], {env});
      assert.deepEqual(fresh.json.data.output, resumed.json.data.output);
    });

    if (driver.harness === 'opencode') {
      test('opencode: a session gone from its data folder fails the resumed agent with a code before any request', async () => {
        released = false;
        const env = {...project.env, ...home.env};
        const seen = server.turns().length;
        const started = startCli(['run', 'talk', '--input', '{"turns":4}', '--json'], {
          cwd: project.cwd,
          env,
        });
        await waitUntil(
          () =>
            server
              .turns()
              .slice(seen)
              .some((t) => t.prompt === 'TURN 3'),
          started.done,
        );
        started.child.kill('SIGKILL');
        await started.done;
        for (const {pid} of await findMarkedProcesses(home.marker)) process.kill(pid, 'SIGKILL');
        // OpenCode's data folder, where its sessions are, is removed.
        await rm(join(home.env.XDG_DATA_HOME!, 'opencode'), {recursive: true, force: true});

        released = true;
        const before = server.turns().length;
        const listed = await project.cli(['runs', 'list', '--json'], {env});
        const resumed = await project.cli(['runs', 'resume', listed.json.data.runs[0].runId, '--json'], {
          env,
        });
        assert.equal(resumed.exitCode, 1, resumed.stdout + resumed.stderr);
        assert.equal(resumed.json.error.code, 'STRATOS_RESUME_CONVERSATION_UNSUPPORTED');
        assert.match(resumed.json.error.message, /OpenCode does not have it/);
        assert.equal(server.turns().length, before);
      });
    }
  });
}
