// Hardening, bad input gets a clear coded error fast, through the real CLI: manifest
// size, line and depth limits, linear validation with a bounded list of findings, coded errors where Stratos
// used to fail with STRATOS_INTERNAL, reserved names, unknown harnesses, repeated flags, and large inputs from a
// file or stdin. Timing belongs to bench/hostile-manifests.bench.ts, not here.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {mkdir, readFile, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {cleanEnv, cliPath} from '../../helpers/run-cli.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';

const q = JSON.stringify;
let project: TempProject;

const lengthWorkflow = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({text: z.string().describe('Any text')}),
  output: z.object({length: z.number().describe('Its length')}),
  run({text}) {
    return {length: text.length};
  },
});
`;

before(async () => {
  project = await createTempProject('stratos-hardening-input-');
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
  await project.writeWorkflow('length', {'workflow.yaml': manifest('length'), 'workflow.ts': lengthWorkflow});
});

after(() => project.remove());

interface ListedWorkflow {
  name: string;
  diagnostics: {code: string; message: string}[];
}

async function listed(): Promise<{workflows: ListedWorkflow[]; problems: {code: string}[]}> {
  const result = await project.cli(['list', '--json']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  return result.json.data;
}

function codesOf(workflows: ListedWorkflow[], folder: string): string[] {
  const entry = workflows.find((w) => w.name === folder);
  assert.ok(entry, `${folder} is listed`);
  return entry.diagnostics.map((d) => d.code);
}

test('manifests over the size or line limit are rejected with a code, and the rest are still listed', async () => {
  const head = `${manifest('too-big')}`;
  await project.writeWorkflow('too-big', {
    'workflow.yaml': head + Array.from({length: 60_000}, (_, i) => `unknown_${i}: value\n`).join(''),
  });
  await project.writeWorkflow('blank-lines', {
    'workflow.yaml': manifest('blank-lines') + '\n'.repeat(10_000_000),
  });
  await project.writeWorkflow('many-lines', {'workflow.yaml': manifest('many-lines') + '\n'.repeat(20_000)});
  const {workflows} = await listed();
  assert.deepEqual(codesOf(workflows, 'too-big'), ['STRATOS_MANIFEST_TOO_LARGE']);
  assert.deepEqual(codesOf(workflows, 'blank-lines'), ['STRATOS_MANIFEST_TOO_LARGE']);
  assert.deepEqual(codesOf(workflows, 'many-lines'), ['STRATOS_MANIFEST_TOO_LARGE']);
  const message = workflows.find((w) => w.name === 'many-lines')?.diagnostics[0]?.message ?? '';
  assert.match(message, /20\d{3} lines; the limit is 10,000/);
  assert.deepEqual(codesOf(workflows, 'echo'), [], 'a good workflow beside them is unaffected');
  const run = await project.cli(['run', 'too-big', '--json']);
  assert.equal(run.exitCode, 1);
  assert.match(run.stdout, /STRATOS_MANIFEST_TOO_LARGE/);
  assert.doesNotMatch(run.stdout + run.stderr, /STRATOS_INTERNAL/);
  for (const name of ['too-big', 'blank-lines', 'many-lines'])
    await rm(join(project.projectRoot, name), {recursive: true});
});

test('manifests with thousands of YAML aliases stop at the alias limit, and the rest are still listed', async () => {
  // The reported shape: 5,000 anchors and 4,900 aliases in 169 KB kept `stratos list` busy for half a minute.
  const names = ['aliases-a', 'aliases-b', 'aliases-c'];
  for (const name of names) {
    const lines = ['agents:'];
    for (let i = 0; i < 5000; i++) lines.push(`  a${i}: &x${i} {model: m${i}}`);
    lines.push('decisions:');
    for (let i = 0; i < 4900; i++) lines.push(`  d${i}: *x${i}`);
    await project.writeWorkflow(name, {'workflow.yaml': `${manifest(name)}${lines.join('\n')}\n`});
  }
  const {workflows} = await listed();
  for (const name of names) {
    assert.deepEqual(codesOf(workflows, name), ['STRATOS_MANIFEST_ALIAS_LIMIT']);
    const message = workflows.find((w) => w.name === name)?.diagnostics[0]?.message ?? '';
    assert.match(
      message,
      /more than 1,000 YAML aliases; the one over the limit is '\*x1000' \(line 6007, column 10\)/,
    );
  }
  assert.deepEqual(codesOf(workflows, 'echo'), [], 'a good workflow beside them is unaffected');
  for (const name of names) await rm(join(project.projectRoot, name), {recursive: true});
});

test('thousands of unknown keys within the limit report at most 100 findings and a count of the rest', async () => {
  await project.writeWorkflow('unknown-keys', {
    'workflow.yaml':
      manifest('unknown-keys') + Array.from({length: 5000}, (_, i) => `unknown_${i}: v\n`).join(''),
  });
  const {workflows} = await listed();
  const codes = codesOf(workflows, 'unknown-keys');
  assert.equal(codes.length, 101);
  assert.equal(codes.filter((c) => c === 'STRATOS_MANIFEST_FIELD_UNKNOWN').length, 100);
  assert.equal(codes.at(-1), 'STRATOS_MANIFEST_PROBLEMS_TRUNCATED');
  await rm(join(project.projectRoot, 'unknown-keys'), {recursive: true});
});

test('YAML nested 750 levels deep reports the depth limit, not a stack overflow', async () => {
  await project.writeWorkflow('deep-flow', {
    'workflow.yaml': `${manifest('deep-flow')}extra: ${'['.repeat(750)}${']'.repeat(750)}\n`,
  });
  let block = 'extra:\n';
  for (let i = 1; i <= 750; i++) block += `${'  '.repeat(i)}k:\n`;
  await project.writeWorkflow('deep-block', {'workflow.yaml': `${manifest('deep-block')}${block}`});
  const {workflows} = await listed();
  for (const name of ['deep-flow', 'deep-block']) {
    const entry = workflows.find((w) => w.name === name);
    assert.deepEqual(
      entry?.diagnostics.map((d) => d.code),
      ['STRATOS_MANIFEST_TOO_DEEP'],
      JSON.stringify(entry?.diagnostics),
    );
    assert.match(entry?.diagnostics[0]?.message ?? '', /more than 64 levels deep/);
    assert.doesNotMatch(entry?.diagnostics[0]?.message ?? '', /call stack/);
  }
  for (const name of ['deep-flow', 'deep-block'])
    await rm(join(project.projectRoot, name), {recursive: true});
});

test('an MCP server key of 301 characters, reserved names and an unknown harness fail validation', async () => {
  const longKey = `s${'x'.repeat(300)}`;
  await project.writeWorkflow('long-key', {
    'workflow.yaml': manifest(
      'long-key',
      `mcp:\n  servers:\n    ${longKey}:\n      type: stdio\n      command: node\n`,
    ),
  });
  await project.writeWorkflow('device-key', {
    'workflow.yaml': manifest(
      'device-key',
      'mcp:\n  servers:\n    nul:\n      type: stdio\n      command: node\n',
    ),
  });
  await project.writeWorkflow('con', {'workflow.yaml': manifest('con'), 'workflow.ts': echoWorkflow});
  await project.writeWorkflow('bad-harness', {
    'workflow.yaml': manifest('bad-harness', 'agents:\n  a:\n    harness: nope\n'),
    'workflow.ts': echoWorkflow,
  });
  const {workflows} = await listed();
  const longEntry = workflows.find((w) => w.name === 'long-key');
  assert.ok(longEntry?.diagnostics.some((d) => /has 301 characters; the limit is 64/.test(d.message)));
  assert.ok(
    workflows
      .find((w) => w.name === 'device-key')
      ?.diagnostics.some((d) => /device name Windows reserves/.test(d.message)),
  );
  assert.ok(codesOf(workflows, 'con').includes('STRATOS_MANIFEST_NAME_INVALID'));
  const harness = workflows.find((w) => w.name === 'bad-harness')?.diagnostics ?? [];
  assert.ok(
    harness.some(
      (d) => d.code === 'STRATOS_AGENT_CONFIG_INVALID' && /must be one of claude-code, codex/.test(d.message),
    ),
    JSON.stringify(harness),
  );
  const built = await project.cli(['build', 'bad-harness', '--json']);
  assert.equal(built.exitCode, 1, 'an unknown harness fails the build');
  const long = await project.cli(['build', 'long-key', '--json']);
  assert.equal(long.exitCode, 1);
  assert.doesNotMatch(long.stdout + long.stderr, /STRATOS_INTERNAL|ENAMETOOLONG/);
  for (const name of ['long-key', 'device-key', 'con', 'bad-harness']) {
    await rm(join(project.projectRoot, name), {recursive: true});
  }
});

test('a folder where a generated wrapper belongs is a coded build error, not STRATOS_INTERNAL', async () => {
  const directory = await project.writeWorkflow('wrapper-dir', {
    'workflow.yaml': manifest(
      'wrapper-dir',
      `mcp:\n  servers:\n    x:\n      type: stdio\n      command: ${q(process.execPath)}\n      args: ${q([SERVE_SCRIPT, 'schemas', '--stdio'])}\n`,
    ),
  });
  await mkdir(join(directory, 'generated', 'mcp', 'x.ts', 'inside'), {recursive: true});
  const result = await project.cli(['build', 'wrapper-dir', '--json']);
  assert.equal(result.exitCode, 1, result.stdout);
  assert.doesNotMatch(result.stdout + result.stderr, /STRATOS_INTERNAL/);
  // Refused before anything is written or deleted (the owned-output check).
  assert.match(result.stdout, /STRATOS_BUILD_OUTPUT_UNSAFE/);
  await rm(directory, {recursive: true});
});

test('runs list when the runs folder is a file is STRATOS_RUNS_UNREADABLE', async () => {
  const other = await createTempProject('stratos-hardening-runs-');
  try {
    await mkdir(other.home, {recursive: true});
    await writeFile(join(other.home, 'runs'), 'not a folder');
    const result = await other.cli(['runs', 'list', '--json']);
    assert.equal(result.exitCode, 1);
    assert.equal(result.json.error.code, 'STRATOS_RUNS_UNREADABLE', result.stdout);
    assert.match(result.json.error.message, /is not a folder/);
    assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
  } finally {
    await other.remove();
  }
});

test('a file exporter path naming an unrelated file is refused with a warning and the file is unchanged', async () => {
  const unrelated = join(project.cwd, 'notes.txt');
  await writeFile(unrelated, 'my own notes\n');
  await project.writeWorkflow('exports-to-notes', {
    'workflow.yaml': manifest(
      'exports-to-notes',
      `telemetry:\n  exporters:\n    - type: file\n      path: ${q(unrelated)}\n`,
    ),
    'workflow.ts': echoWorkflow,
  });
  const result = await project.cli(['run', 'exports-to-notes', '--input', '{"text":"hi"}', '--json']);
  assert.equal(result.exitCode, 0, result.stdout);
  assert.ok(
    result.json.warnings.some(
      (w: {code: string; message: string}) =>
        w.code === 'STRATOS_TELEMETRY_EXPORT_FAILED' && /does not append/.test(w.message),
    ),
    JSON.stringify(result.json.warnings),
  );
  assert.equal(await readFile(unrelated, 'utf8'), 'my own notes\n');
});

test('~ alone as a target is the home directory', async () => {
  await writeFile(join(project.env.HOME!, 'workflow.yaml'), manifest('home-flow'));
  await writeFile(join(project.env.HOME!, 'workflow.ts'), echoWorkflow);
  const result = await project.cli(['run', '~', '--input', '{"text":"home"}', '--json']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.equal(result.json.data.output.echo, 'HOME');
});

test('a repeated --input is a usage error instead of silently taking the last', async () => {
  const result = await project.cli([
    'run',
    'echo',
    '--input',
    '{"text":"a"}',
    '--input',
    '{"text":"b"}',
    '--json',
  ]);
  assert.equal(result.exitCode, 1);
  assert.equal(result.json.error.code, 'STRATOS_CLI_USAGE');
  assert.match(result.json.error.message, /--input was given more than once/);
});

test('duplicate workflow names in one root are listed with a diagnostic', async () => {
  await project.writeWorkflow('twin-a', {'workflow.yaml': manifest('twin'), 'workflow.ts': echoWorkflow});
  await project.writeWorkflow('twin-b', {'workflow.yaml': manifest('twin'), 'workflow.ts': echoWorkflow});
  const result = await project.cli(['list', '--json']);
  const all = [...result.json.data.problems, ...result.json.warnings];
  assert.ok(
    all.some((d: {code: string}) => d.code === 'STRATOS_WORKFLOW_DUPLICATE_NAME'),
    JSON.stringify(all),
  );
  const readable = await project.cli(['list']);
  assert.match(readable.stderr, /STRATOS_WORKFLOW_DUPLICATE_NAME/);
  for (const name of ['twin-a', 'twin-b']) await rm(join(project.projectRoot, name), {recursive: true});
});

test('a 20 MB input passes through --input-file and through --input - (stdin)', async () => {
  const text = 'x'.repeat(20 * 1024 * 1024);
  const file = join(project.cwd, 'big-input.json');
  await writeFile(file, JSON.stringify({text}));
  const fromFile = await project.cli(['run', 'length', '--input-file', 'big-input.json', '--json']);
  assert.equal(fromFile.exitCode, 0, fromFile.stdout.slice(0, 2000));
  assert.equal(fromFile.json.data.output.length, text.length);

  const child = spawn(process.execPath, [cliPath, 'run', 'length', '--input', '-', '--json'], {
    cwd: project.cwd,
    env: {...cleanEnv(), ...project.env},
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.resume();
  child.stdin.end(JSON.stringify({text}));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stdout.slice(0, 2000));
  assert.equal(JSON.parse(stdout).data.output.length, text.length);

  const missing = await project.cli(['run', 'length', '--input-file', 'nope.json', '--json']);
  assert.equal(missing.json.error.code, 'STRATOS_INPUT_FILE_UNREADABLE');
  const both = await project.cli([
    'run',
    'length',
    '--input',
    '{}',
    '--input-file',
    'big-input.json',
    '--json',
  ]);
  assert.equal(both.json.error.code, 'STRATOS_CLI_USAGE');
  await rm(file);
});
