/**
 * The build key is exactly what changes the compiled output, the wrappers or the contract check, and `list`,
 * `build` and `run` apply one reuse rule. Run-only configuration (agent models, prompts, telemetry destinations)
 * and anything a run writes inside the workflow folder leave the build fresh and the next run compiles nothing;
 * each real input (entrypoint, imported module, package.json and lock, a directly used MCP server's configuration,
 * a child's contract) makes it stale. Real CLI, real tsc, a real stdio MCP server.
 */
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {existsSync, readFileSync, statSync} from 'node:fs';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';

const q = JSON.stringify;
const stdio = (env: string) =>
  `      type: stdio\n      command: ${q(process.execPath)}\n      args: ${q([SERVE_SCRIPT, 'counter', '--stdio'])}\n      env: {MARK: ${q(env)}}\n`;

interface Settings {
  model?: string;
  trace?: string;
  used?: string;
  spare?: string;
}

const yaml = (settings: Settings = {}) =>
  manifest(
    'keyed',
    `agents:
  writer:
    harness: claude-code
    model: ${settings.model ?? 'model-a'}
    systemPrompt: {file: prompts/system.md}
mcp:
  servers:
    used:
${stdio(settings.used ?? 'one')}    spare:
${stdio(settings.spare ?? 'one')}${settings.trace === undefined ? '' : `telemetry:\n  exporters:\n    - type: file\n      path: ${settings.trace}\n`}`,
  );

const entry = (suffix: string) => `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createChild from '../.generated/kid.js';
import createUsed from './generated/mcp/used.js';
import {mark} from './lib/mark.js';

export default workflow({
  input: z.strictObject({text: z.string().describe('Text')}),
  output: z.object({out: z.string().describe('Result')}),
  async run({text}) {
    const used = await createUsed();
    const echoed = await used.echo({text});
    const {shout} = await createChild().execute({text});
    return {out: mark(echoed.structuredContent.text + '/' + shout) + '${suffix}'};
  },
});
`;

const kid = (body: string, description = 'Shouted') => `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({text: z.string().describe('Text')}),
  output: z.object({shout: z.string().describe('${description}')}),
  run: ({text}) => ({shout: ${body}}),
});
`;

let project: TempProject;
let directory: string;
let kidDirectory: string;

const recordOf = (folder: string) => readFileSync(join(folder, 'dist', '.stratos-build.json'), 'utf8');
const compiledAt = (folder: string, name: string) =>
  statSync(join(folder, 'dist', name, 'workflow.js')).mtimeMs;

async function states(): Promise<Record<string, string>> {
  const listed = await project.cli(['list', '--json']);
  assert.equal(listed.exitCode, 0, listed.stdout + listed.stderr);
  return Object.fromEntries(
    listed.json.data.workflows.map((w: {name: string; build: string}) => [w.name, w.build]),
  );
}

async function run(): Promise<string> {
  const result = await project.cli(['run', 'keyed', '--input', '{"text":"hi"}', '--json']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  return result.json.data.output.out;
}

/** Runs and asserts that neither workflow was compiled again. */
async function runCompilingNothing(): Promise<string> {
  const before = [recordOf(directory), compiledAt(directory, 'keyed'), recordOf(kidDirectory)];
  const out = await run();
  assert.deepEqual([recordOf(directory), compiledAt(directory, 'keyed'), recordOf(kidDirectory)], before);
  return out;
}

before(async () => {
  project = await createTempProject('stratos-build-reuse-');
  directory = await project.writeWorkflow('keyed', {
    'workflow.yaml': yaml(),
    'workflow.ts': entry(''),
    'lib/mark.ts': `export const mark = (text: string): string => '[' + text + ']';\n`,
    'prompts/system.md': 'You write.\n',
  });
  kidDirectory = await project.writeWorkflow('kid', {
    'workflow.yaml': manifest('kid'),
    'workflow.ts': kid('text.toUpperCase()'),
  });
  const built = await project.cli(['build', '--json']);
  assert.equal(built.exitCode, 0, built.stdout + built.stderr);
  assert.equal(await run(), '[hi/HI]');
});

after(() => project.remove());

test('an agent model edit leaves the build fresh; the next run compiles nothing and uses the new manifest', async () => {
  await writeFile(join(directory, 'workflow.yaml'), yaml({model: 'model-b'}));
  assert.deepEqual(await states(), {keyed: 'fresh', kid: 'fresh'});
  assert.equal(await runCompilingNothing(), '[hi/HI]');
  // The reused build records the new bytes' manifest, so later runs skip the YAML parser again.
  const cache = JSON.parse(readFileSync(join(directory, 'dist', '.stratos-manifest.json'), 'utf8'));
  const bytes = readFileSync(join(directory, 'workflow.yaml'));
  assert.equal(cache.hash, createHash('sha256').update(bytes).digest('hex'));
  assert.equal(cache.manifest.agents.writer.model, 'model-b');
});

test('a prompt edit, an unused server change and a file nobody imports leave the build fresh', async () => {
  await writeFile(join(directory, 'prompts', 'system.md'), 'You write tersely.\n');
  await writeFile(join(directory, 'workflow.yaml'), yaml({model: 'model-b', spare: 'two'}));
  await writeFile(join(directory, 'notes.md'), 'An authored note.\n');
  await writeFile(join(directory, 'unused.ts'), 'export const unused = 1;\n');
  assert.deepEqual(await states(), {keyed: 'fresh', kid: 'fresh'});
  assert.equal(await runCompilingNothing(), '[hi/HI]');
});

test('a run with a relative trace file leaves the next run cached; a new destination is read fresh', async () => {
  await writeFile(join(directory, 'workflow.yaml'), yaml({model: 'model-b', trace: 'traces.jsonl'}));
  assert.equal(await runCompilingNothing(), '[hi/HI]');
  assert.ok(
    existsSync(join(directory, 'traces.jsonl')),
    'the run wrote its traces inside the workflow folder',
  );
  assert.deepEqual(await states(), {keyed: 'fresh', kid: 'fresh'});
  assert.equal(await runCompilingNothing(), '[hi/HI]');
  await writeFile(join(directory, 'workflow.yaml'), yaml({model: 'model-b', trace: 'other/traces.jsonl'}));
  assert.equal(await runCompilingNothing(), '[hi/HI]');
  assert.ok(existsSync(join(directory, 'other', 'traces.jsonl')), 'the run read the new destination');
});

/** Applies `change`, expects `list` to show `expected`, then runs (rebuilding) and expects everything fresh. */
async function expectStale(
  change: () => Promise<void>,
  expected: Record<string, string>,
  output: string,
): Promise<void> {
  const key = JSON.parse(recordOf(directory)).key;
  await change();
  assert.deepEqual(await states(), expected);
  assert.equal(await run(), output);
  assert.deepEqual(await states(), {keyed: 'fresh', kid: 'fresh'});
  assert.notEqual(JSON.parse(recordOf(directory)).key, key);
}

test('the entrypoint and the modules it imports are in the key', async () => {
  await expectStale(
    () => writeFile(join(directory, 'workflow.ts'), entry('!')),
    {keyed: 'stale', kid: 'fresh'},
    '[hi/HI]!',
  );
  await expectStale(
    () =>
      writeFile(
        join(directory, 'lib', 'mark.ts'),
        `export const mark = (text: string): string => '<' + text + '>';\n`,
      ),
    {keyed: 'stale', kid: 'fresh'},
    '<hi/HI>!',
  );
});

test('package.json and its lock are in the key', async () => {
  await expectStale(
    () => writeFile(join(directory, 'package.json'), '{"name": "keyed", "type": "module"}\n'),
    {keyed: 'stale', kid: 'fresh'},
    '<hi/HI>!',
  );
  await expectStale(
    () => writeFile(join(directory, 'package-lock.json'), '{"name": "keyed", "lockfileVersion": 3}\n'),
    {keyed: 'stale', kid: 'fresh'},
    '<hi/HI>!',
  );
});

test("a directly used MCP server's configuration is in the key", async () => {
  await expectStale(
    () => writeFile(join(directory, 'workflow.yaml'), yaml({model: 'model-b', used: 'two'})),
    {keyed: 'stale', kid: 'fresh'},
    '<hi/HI>!',
  );
});

test("a child's contract is in its parent's key; a change of the child's body alone rebuilds only the child", async () => {
  const parentBefore = recordOf(directory);
  await writeFile(join(kidDirectory, 'workflow.ts'), kid(`text.toUpperCase() + '?'`));
  // The parent cannot be fresh while a child it compiles against is stale.
  assert.deepEqual(await states(), {keyed: 'stale', kid: 'stale'});
  assert.equal(await run(), '<hi/HI?>!');
  assert.equal(recordOf(directory), parentBefore, 'the parent was reused: the child contract is unchanged');
  // A contract change (here only a description) changes the child's wrapper: the parent is compiled again.
  await writeFile(join(kidDirectory, 'workflow.ts'), kid(`text.toUpperCase() + '?'`, 'Shouted text'));
  assert.equal(await run(), '<hi/HI?>!');
  assert.notEqual(JSON.parse(recordOf(directory)).key, JSON.parse(parentBefore).key);
  assert.deepEqual(await states(), {keyed: 'fresh', kid: 'fresh'});
});
