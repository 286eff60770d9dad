// The authoring loop of the bundled skill, followed as written by the real Claude Code binary. After
// `stratos skill install`, a scripted model loads the skill with Claude Code's Skill tool, takes every command and
// file from the text Claude Code hands it, and runs them through the Bash and Write tools: list --json,
// describe --json, the skill's example workflow written with one mistake, build (failing, diagnostics read), the
// fix, build, run --json and runs show. Each step checks the JSON shape the skill teaches; a mismatch is recorded
// and fails the test.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {mkdir, readFile, symlink} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {
  type AnthropicReply,
  type AnthropicServer,
  startAnthropicServer,
} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';

const require = createRequire(import.meta.url);
const repo = fileURLToPath(new URL('../../..', import.meta.url));
const claudeBinary = join(
  dirname(require.resolve('@anthropic-ai/claude-agent-sdk-linux-x64/package.json')),
  'claude',
);

interface Step {
  tool: string;
  input: Record<string, unknown>;
  result: string;
  isError: boolean;
}

let server: AnthropicServer;
let home: HarnessHome;
let project: TempProject;
const problems: string[] = [];
const seen: Record<string, unknown> = {};

/** The history of tool calls and results in the main conversation, in order. */
function stepsOf(body: {messages: {role: string; content: unknown}[]}): {steps: Step[]; skillText: string} {
  const steps: Step[] = [];
  const byId = new Map<string, Step>();
  let skillText = '';
  for (const message of body.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Record<string, unknown>[]) {
      if (block.type === 'tool_use') {
        const step = {
          tool: String(block.name),
          input: block.input as Record<string, unknown>,
          result: '',
          isError: false,
        };
        steps.push(step);
        byId.set(String(block.id), step);
      } else if (block.type === 'tool_result') {
        const step = byId.get(String(block.tool_use_id));
        if (step === undefined) continue;
        const content = block.content;
        step.result =
          typeof content === 'string'
            ? content
            : (content as {text?: string}[]).map((c) => c.text ?? '').join('');
        step.isError = block.is_error === true;
      } else if (block.type === 'text' && String(block.text).includes('# Stratos workflows')) {
        skillText = String(block.text);
      }
    }
  }
  return {steps, skillText};
}

/** The fenced block of the skill whose info string is `info` (```yaml workflow.yaml). */
function block(skill: string, info: string): string {
  const match = skill.match(new RegExp(`\`\`\`${info.replace(' ', ' ')}\\n([\\s\\S]*?)\`\`\``));
  if (match === null) throw new Error(`the skill text has no \`\`\`${info} block`);
  return match[1]!;
}

/** The JSON envelope in a Bash result (Claude Code prefixes a failed command's output with its exit code). */
function envelope(result: string): {ok: boolean; [key: string]: unknown} {
  return JSON.parse(result.slice(result.indexOf('{'), result.lastIndexOf('}') + 1));
}

function expect(condition: boolean, what: string): void {
  if (!condition) problems.push(what);
}

function bash(command: string): AnthropicReply {
  return {toolUse: {name: 'Bash', input: {command, description: 'Run a Stratos command'}}};
}

/** The scripted model: the next action follows from the conversation so far. */
function next(body: {messages: {role: string; content: unknown}[]}): AnthropicReply {
  const {steps, skillText} = stepsOf(body);
  const last = steps.at(-1);
  const root = join(project.cwd, '.stratos', 'workflows', 'changelog-line');
  switch (steps.length) {
    case 0:
      return {toolUse: {name: 'Skill', input: {skill: 'stratos-workflows'}}};
    case 1: {
      expect(skillText.includes('stratos list --json'), 'the Skill tool delivered the skill text');
      return bash('stratos list --json');
    }
    case 2: {
      const list = envelope(last!.result) as {
        ok: boolean;
        message: string;
        data: {workflows: {name: string; shortDescription: string}[]};
      };
      expect(list.ok === true, `list --json is ok: ${last!.result.slice(0, 300)}`);
      expect(list.message === '1 workflow', `list message is a brief count: ${list.message}`);
      const first = list.data.workflows[0];
      expect(
        first?.name === 'echo' && typeof first.shortDescription === 'string',
        'list gives name and shortDescription',
      );
      seen.list = list;
      return bash(`stratos describe ${first?.name} --json`);
    }
    case 3: {
      const describe = envelope(last!.result) as {ok: boolean; data: Record<string, unknown>};
      expect(describe.ok === true, `describe --json is ok: ${last!.result.slice(0, 300)}`);
      expect(typeof describe.data.longDescription === 'string', 'describe gives longDescription');
      seen.describe = describe;
      return {
        toolUse: {
          name: 'Write',
          input: {file_path: join(root, 'workflow.yaml'), content: block(skillText, 'yaml workflow.yaml')},
        },
      };
    }
    case 4: {
      // The mistake: the kind field loses its description, which the schema rules require.
      const code = block(skillText, 'ts workflow.ts');
      const broken = code.replace(".default('fix').describe('Kind of change')", ".default('fix')");
      expect(broken !== code, 'the example has the field to break');
      return {toolUse: {name: 'Write', input: {file_path: join(root, 'workflow.ts'), content: broken}}};
    }
    case 5: {
      const command = block(skillText, 'sh example-command').split('\n')[0]!;
      expect(command === 'stratos build changelog-line', `the example's build command: ${command}`);
      return bash(`${command} --json`);
    }
    case 6: {
      const build = envelope(last!.result) as {
        ok: boolean;
        error: {
          code: string;
          details: {
            workflows: {
              diagnostics: {
                code: string;
                path?: string;
                message: string;
                location?: {file: string; line: number};
              }[];
            }[];
          };
        };
      };
      expect(
        build.ok === false && last!.result.startsWith('Exit code 1'),
        'the broken build fails with exit code 1',
      );
      const diagnostics = build.error?.details?.workflows?.flatMap((w) => w.diagnostics) ?? [];
      const missing = diagnostics.find((d) => d.code === 'STRATOS_CONTRACT_DESCRIPTION_MISSING');
      expect(missing?.path === 'input.kind', `a diagnostic names the field: ${JSON.stringify(diagnostics)}`);
      const line =
        block(skillText, 'ts workflow.ts')
          .split('\n')
          .findIndex((l) => l.includes('kind: z.enum')) + 1;
      expect(
        missing?.location?.file === join(root, 'workflow.ts') && missing.location.line === line,
        `the diagnostic points at line ${line} of workflow.ts: ${JSON.stringify(missing?.location)}`,
      );
      expect(/describe/.test(missing?.message ?? ''), `the message says the fix: ${missing?.message}`);
      seen.diagnostic = missing;
      return {
        toolUse: {
          name: 'Write',
          input: {file_path: join(root, 'workflow.ts'), content: block(skillText, 'ts workflow.ts')},
        },
      };
    }
    case 7:
      return bash(block(skillText, 'sh example-command').split('\n')[0]!);
    case 8: {
      expect(
        !last!.isError && last!.result.includes('✓ built'),
        `the fixed build prints ✓ built: ${last!.result.slice(0, 300)}`,
      );
      const run = block(skillText, 'sh example-command').split('\n')[1]!;
      return bash(`${run} --json`);
    }
    case 9: {
      const run = envelope(last!.result) as {
        ok: boolean;
        data: {output: unknown; executionId: string; durationMs: number};
      };
      expect(run.ok === true, `run --json is ok: ${last!.result.slice(0, 300)}`);
      const expected = JSON.parse(block(skillText, 'json example-output'));
      expect(
        JSON.stringify(run.data.output) === JSON.stringify(expected),
        `run output is the example output: ${JSON.stringify(run.data?.output)}`,
      );
      expect(
        typeof run.data.executionId === 'string' && typeof run.data.durationMs === 'number',
        'run gives executionId and durationMs',
      );
      seen.run = run;
      return bash(`stratos runs show ${run.data.executionId}`);
    }
    case 10: {
      expect(
        !last!.isError && /workflow changelog-line: .*succeeded/.test(last!.result),
        `runs show explains the run: ${last!.result.slice(0, 300)}`,
      );
      seen.runsShow = last!.result;
      return {text: 'The changelog-line workflow is written, built and ran as the skill shows.'};
    }
    default:
      problems.push(`unexpected step ${steps.length}`);
      return {text: 'stopping'};
  }
}

before(async () => {
  server = await startAnthropicServer((turn) =>
    turn.toolNames.includes('Skill') ? next(turn.body) : {text: 'side'},
  );
  home = await createHarnessHome({anthropicUrl: server.url});
  project = await createTempProject('stratos-skill-loop-');
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
  // `stratos` on PATH the way a global install puts it there: a link to the package's bin.
  const bin = join(home.base, 'bin');
  await mkdir(bin, {recursive: true});
  await symlink(join(repo, 'bin', 'stratos.js'), join(bin, 'stratos'));
  home.env.PATH = `${bin}:${home.env.PATH}`;
  home.env.STRATOS_HOME = project.home;
  home.env.IS_SANDBOX = '1';
});

after(async () => {
  await server?.close();
  assert.deepEqual(
    await survivingProcesses(home.marker),
    [],
    'a claude or stratos process outlived the test',
  );
  await project?.remove();
  await home?.remove();
});

test('Claude Code follows the installed skill: list, describe, write, build with a mistake, fix, run, runs show', async () => {
  const install = await project.cli(['skill', 'install', '--agent', 'claude-code', '--json'], {
    env: home.env,
  });
  assert.equal(install.exitCode, 0, install.stdout);

  const result = await new Promise<{code: number | null; stdout: string; stderr: string}>((resolve) => {
    const child = spawn(
      claudeBinary,
      [
        '-p',
        'Write a workflow that formats changelog lines.',
        '--output-format',
        'stream-json',
        '--verbose',
        '--permission-mode',
        'bypassPermissions',
      ],
      {cwd: project.cwd, env: home.env, stdio: ['ignore', 'pipe', 'pipe']},
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({code, stdout, stderr});
    });
  });
  assert.equal(result.code, 0, result.stderr);
  const final = result.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .find((m) => m.type === 'result');
  assert.deepEqual(problems, [], 'every command and JSON shape behaved as the skill prints it');
  assert.equal(final?.result, 'The changelog-line workflow is written, built and ran as the skill shows.');
  assert.ok(seen.runsShow, 'the loop reached runs show');

  // The files on disk are the skill's example, written by Claude Code's Write tool.
  const skill = await readFile(join(repo, 'skills', 'stratos-workflows', 'SKILL.md'), 'utf8');
  const folder = join(project.projectRoot, 'changelog-line');
  assert.equal(await readFile(join(folder, 'workflow.yaml'), 'utf8'), block(skill, 'yaml workflow.yaml'));
  assert.equal(await readFile(join(folder, 'workflow.ts'), 'utf8'), block(skill, 'ts workflow.ts'));
});
