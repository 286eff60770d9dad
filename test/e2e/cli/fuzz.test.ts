// The hardening probes as a fuzz test: manifests and inputs generated from a fixed seed, so every run
// checks the same cases and a failure is reproducible. Each case must end in a coded diagnostic or error — never a
// throw, STRATOS_INTERNAL, a stack trace or more than one envelope. In-process for the many cheap manifest cases,
// through the real CLI for a sample of manifests (one `list`) and for every generated input (`run`). Two more
// classes: YAML aliases (anchors, merge keys and alias bombs of many shapes, bounded by the alias limits) and
// special files (FIFOs, folders, devices and broken links where Stratos reads a user-named file).
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {mkdirSync, symlinkSync} from 'node:fs';
import {mkdir, readFile, symlink, writeFile} from 'node:fs/promises';
import {dirname, join, relative} from 'node:path';
import {after, before, test} from 'node:test';
import {z} from 'zod';
import {workflow} from '../../../src/contract/index.ts';
import {validateWorkflowInput} from '../../../src/contract/validate.ts';
import {errorCodes} from '../../../src/errors/codes.ts';
import {parseManifest} from '../../../src/manifest/index.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

const SEED = 20_2026;
const MANIFEST_CASES = 400;
const CLI_MANIFEST_CASES = 40;
const CLI_INPUT_CASES = 16;
const INPUT_CASES = 300;

/** mulberry32: a small, fixed, seedable generator. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Every case draws from a generator seeded with its own number, so a case is the same whatever ran before it.
let next = random(SEED);
const seedCase = (kind: number, index: number) => {
  next = random(SEED + kind * 1_000_003 + index);
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
const int = (max: number) => Math.floor(next() * max);

const strangeText = [
  '',
  ' ',
  '\u200b\u200b',
  'Clears \u001b[2J the screen',
  'bell \u0007 here',
  'tab\tinside',
  'line\nbreak',
  '🚀 launch',
  '{env:NOT_SET_ANYWHERE}',
  '{file:../../etc/passwd}',
  '__proto__',
  'constructor',
  '$(rm -rf /)',
  '`id`',
  'quote \' and " both',
  'x'.repeat(5000),
  'é'.repeat(401),
  'a: b',
  '- item',
  '&anchor',
  '*alias',
  '!!binary aGk=',
  '%YAML 1.2',
];

const yamlScalar = (text: string) => JSON.stringify(text);

/** One manifest text: a valid base with a few mutations (fields, types, structure, raw syntax). */
function generateManifest(index: number): string {
  seedCase(1, index);
  const name = pick(['fuzz', `fuzz-${index}`, 'con', 'Fuzz_Case', 'a'.repeat(70), '__proto__', 'x', '-bad']);
  const fields: Record<string, string> = {
    name: yamlScalar(name),
    shortDescription: yamlScalar(pick(['Fuzzed workflow.', ...strangeText])),
    longDescription: yamlScalar(pick(['Used by the fuzz test.', ...strangeText])),
    version: yamlScalar(pick(['1.0.0', '1.0', 'v1', '', '2.1.0-beta.1+build.5'])),
  };
  const mutations = 1 + int(4);
  for (let m = 0; m < mutations; m++) {
    switch (int(14)) {
      case 0:
        delete fields[pick(Object.keys(fields))];
        break;
      case 1:
        fields[pick(['name', 'version', 'shortDescription'])] = pick([
          '[1, 2]',
          '{a: 1}',
          '42',
          'true',
          'null',
          '~',
        ]);
        break;
      case 2:
        fields[`unknown_${int(1000)}`] = yamlScalar(pick(strangeText));
        break;
      case 3:
        fields.mcp = pick([
          '{servers: {gh: {type: http, url: "not a url"}}}',
          '{servers: [a, b]}',
          `{servers: {${'s'.repeat(301)}: {type: stdio, command: node}}}`,
          '{servers: {nul: {type: stdio, command: node}}}',
          '{servers: {ok: {type: stdio, command: node, args: [1, 2]}}}',
          '{servers: {ok: {type: ftp}}}',
          '{servers: {ok: {type: http, url: "http://127.0.0.1:1/mcp", auth: {type: oauth, callbackPort: -1}}}}',
          '{servers: {__proto__: {type: stdio, command: node}}}',
        ]);
        break;
      case 4:
        fields.agents = pick([
          '{a: {harness: nope}}',
          '{a: 1}',
          '[x]',
          '{a: {harness: codex, effort: 7}}',
          '{}',
        ]);
        break;
      case 5:
        fields.telemetry = pick([
          '{exporters: [{type: file}]}',
          '{exporters: [{type: otlp, endpoint: 12}]}',
          '{exporters: {type: file}}',
          '{exporters: [{type: file, path: "/etc/shadow"}]}',
        ]);
        break;
      case 6:
        fields.entrypoint = yamlScalar(
          pick(['../outside.ts', '/abs.ts', 'main.js', 'types.d.ts', 'ok.ts', '']),
        );
        break;
      case 7:
        fields.deep = `${'['.repeat(1 + int(900))}${']'.repeat(1 + int(900))}`;
        break;
      case 8:
        fields.description = yamlScalar('legacy');
        break;
      case 9:
        fields.anchors = pick(['&a [*a]', '*missing', '&a {x: 1}', '[&b 1, *b, *b]']);
        break;
      default:
        break;
    }
  }
  let text = Object.entries(fields)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n');
  switch (int(12)) {
    case 0:
      text += `\n${pick(Object.keys(fields).length > 0 ? Object.keys(fields) : ['name'])}: duplicate`;
      break;
    case 1:
      text = text.slice(0, int(text.length + 1));
      break;
    case 2:
      text += `\n${'  '.repeat(1 + int(8))}misindented: value`;
      break;
    case 3:
      text += `\n---\nname: second`;
      break;
    case 4:
      text = text.replaceAll('\n', '\r\n');
      break;
    case 5:
      text += '\n'.repeat(int(20_000));
      break;
    case 6:
      text = `\ufeff${text}`;
      break;
    default:
      break;
  }
  return `${text}\n`;
}

const knownCodes = new Set(Object.keys(errorCodes));

test('generated manifests always end in coded diagnostics with locations, never a throw', () => {
  for (let i = 0; i < MANIFEST_CASES; i++) {
    const text = generateManifest(i);
    let result: ReturnType<typeof parseManifest>;
    try {
      result = parseManifest(text, `/fuzz/${i}/workflow.yaml`);
    } catch (error) {
      assert.fail(`case ${i} threw ${(error as Error).message}:\n${text.slice(0, 500)}`);
    }
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    assert.equal(
      result.manifest === undefined,
      errors.length > 0,
      `case ${i}: a manifest exactly when no error`,
    );
    assert.ok(result.diagnostics.length <= 101, `case ${i}: at most 100 findings and a count`);
    for (const diagnostic of result.diagnostics) {
      assert.ok(knownCodes.has(diagnostic.code), `case ${i}: unknown code ${diagnostic.code}`);
      assert.ok(diagnostic.code !== 'STRATOS_INTERNAL', `case ${i}: internal error`);
      assert.doesNotMatch(diagnostic.message, /call stack|Maximum call|undefined is not/, `case ${i}`);
      assert.ok(
        (diagnostic.location?.line ?? 0) >= 1 && (diagnostic.location?.column ?? 0) >= 1,
        `case ${i}`,
      );
    }
  }
});

const definition = workflow({
  input: z.strictObject({
    text: z.string().describe('Text'),
    count: z.number().int().optional().describe('A count'),
    tags: z.array(z.string()).optional().describe('Tags'),
    nested: z
      .strictObject({flag: z.boolean().describe('A flag')})
      .optional()
      .describe('Nested'),
  }),
  output: z.object({}),
  run: () => ({}),
});

/** A JSON-like value of random shape: wrong types, unknown fields, deep nesting, long strings. */
function generateValue(depth = 0): unknown {
  switch (int(depth > 3 ? 6 : 10)) {
    case 0:
      return pick(strangeText);
    case 1:
      return pick([0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER + 2]);
    case 2:
      return pick([true, false, null]);
    case 3:
      return 'y'.repeat(int(100_000));
    case 4: {
      let value: unknown = 'leaf';
      for (let d = 0; d < int(3000); d++) value = pick([[value], {k: value}]);
      return value;
    }
    case 5:
      return [];
    case 6:
      return Array.from({length: int(5)}, () => generateValue(depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      const keys = ['text', 'count', 'tags', 'nested', 'flag', 'overrides', '__proto__', 'constructor', 'x'];
      for (let k = 0; k < int(5); k++) out[pick(keys)] = generateValue(depth + 1);
      return out;
    }
  }
}

function generateInput(index: number): unknown {
  seedCase(2, index);
  const input: Record<string, unknown> = int(3) === 0 ? {} : {text: 'ok'};
  for (let k = 0; k < int(4); k++) {
    input[pick(['text', 'count', 'tags', 'nested', 'extra', 'overrides'])] = generateValue();
  }
  return int(8) === 0 ? generateValue() : input;
}

test('generated inputs validate to a value or to issues with a path and a sentence, never a throw', async () => {
  for (let i = 0; i < INPUT_CASES; i++) {
    const input = generateInput(i);
    const result = await validateWorkflowInput(definition, input).catch((error: unknown) =>
      assert.fail(`input case ${i} threw ${(error as Error).message}`),
    );
    if (!result.ok) {
      assert.ok(result.issues.length > 0);
      for (const issue of result.issues) {
        assert.equal(typeof issue.path, 'string');
        assert.ok(issue.message.length > 0);
      }
    }
  }
});

let project: TempProject;

before(async () => {
  project = await createTempProject('stratos-fuzz-');
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
  for (let i = 0; i < CLI_MANIFEST_CASES; i++) {
    await project.writeWorkflow(`case-${i}`, {'workflow.yaml': generateManifest(MANIFEST_CASES + i)});
  }
});

after(() => project?.remove());

function assertOneCodedEnvelope(
  result: {exitCode: number | null; stdout: string; stderr: string; json: unknown},
  what: string,
): void {
  assert.ok(
    result.exitCode === 0 || result.exitCode === 1,
    `${what}: exit ${result.exitCode}\n${result.stderr}`,
  );
  assert.equal(result.stdout.trimEnd().split('\n').length, 1, `${what}: one envelope`);
  const envelope = result.json as {ok: boolean; error?: {code: string}; warnings: {code: string}[]};
  assert.ok(envelope !== undefined, `${what}: stdout is JSON`);
  if (!envelope.ok) {
    assert.ok(knownCodes.has(envelope.error?.code ?? ''), `${what}: code ${envelope.error?.code}`);
    assert.notEqual(envelope.error?.code, 'STRATOS_INTERNAL', `${what}: ${result.stdout.slice(0, 500)}`);
  }
  for (const warning of envelope.warnings) assert.ok(knownCodes.has(warning.code), what);
  assert.doesNotMatch(result.stderr, /^\s+at .+:\d+:\d+\)?$/m, `${what}: no stack trace`);
}

test('stratos list over the generated manifests: one envelope, every finding coded', async () => {
  const result = await project.cli(['list', '--json']);
  assertOneCodedEnvelope(result, 'list');
  const listed = (result.json as {data: {workflows: {name: string}[]}}).data.workflows;
  assert.ok(listed.length >= CLI_MANIFEST_CASES, 'every folder is listed, valid or not');
  const readable = await project.cli(['list']);
  assert.equal(readable.exitCode, 0);
  assert.ok(!`${readable.stdout}${readable.stderr}`.includes('\u001b'), 'no raw escape on the terminal');
});

test('stratos run with generated inputs: a coded result for each, never an internal error', async () => {
  const built = await project.cli(['build', 'echo']);
  assert.equal(built.exitCode, 0, built.stderr);
  for (let i = 0; i < CLI_INPUT_CASES; i++) {
    const input = generateInput(INPUT_CASES + i);
    const text = i % 6 === 5 ? JSON.stringify(input).slice(0, -1) : JSON.stringify(input);
    const result = await project.cli([
      'run',
      'echo',
      '--input',
      text.length > 100_000 ? '{}' : text,
      '--json',
    ]);
    assertOneCodedEnvelope(result, `run case ${i}`);
  }
});

// Streamed output: a workflow writes registered secrets (credential environment variables) to stdout and stderr
// in pieces cut at seeded offsets, mixed with other text and terminal escapes. Neither output of the CLI may hold a
// secret whole or a raw escape, and every other text must arrive, in order, escaped where it had control characters.
const STREAM_CASES = 3;

const streamingWorkflow = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

const part = z.union([
  z.string().describe('Literal text'),
  z.tuple([z.number(), z.number(), z.number()]).describe('Secret index, start and end of a slice of it'),
]);

export default workflow({
  input: z.strictObject({
    writes: z
      .array(
        z.strictObject({
          stream: z.enum(['stdout', 'stderr']).describe('Where to write'),
          bytes: z.boolean().describe('Write a Buffer instead of a string'),
          parts: z.array(part).describe('What one write holds'),
        }),
      )
      .describe('The writes, in order'),
  }),
  output: z.object({writes: z.number().describe('How many writes were made')}),
  run({writes}) {
    const secrets = [process.env.FUZZ_STREAM_TOKEN as string, process.env.FUZZ_DB_PASS as string];
    for (const write of writes) {
      const text = write.parts
        .map((p) => (typeof p === 'string' ? p : secrets[p[0]]!.slice(p[1], p[2])))
        .join('');
      process[write.stream].write(write.bytes ? Buffer.from(text) : text);
    }
    return {writes: writes.length};
  },
});
`;

type StreamPart = string | [number, number, number];
interface StreamWrite {
  stream: 'stdout' | 'stderr';
  bytes: boolean;
  parts: StreamPart[];
}

/** Escapes and near misses between the secrets; `keep-<case>-<n>` marks the text that must arrive. */
function generateStream(index: number): {
  secrets: [string, string];
  writes: StreamWrite[];
  kept: Map<string, string>;
} {
  seedCase(3, index);
  const hex = () => Array.from({length: 20}, () => pick([...'0123456789abcdef'])).join('');
  const secrets: [string, string] = [`fuzz-token-${hex()}`, `dbpass-${hex()}`];
  const writes: StreamWrite[] = [];
  const kept = new Map<string, string>();
  const stream = () => pick(['stdout', 'stderr'] as const);
  for (let n = 0; n < 8 + int(6); n++) {
    const marker = `keep-${index}-${n}`;
    const noise = pick([
      '\u001b[31m',
      '\u001b[2J',
      '\u001b]0;title\u0007',
      '\r',
      '\t',
      ' 🚀 ',
      `${secrets[0].slice(0, 1 + int(10))}#`,
      `${secrets[1].slice(0, 1 + int(8))} `,
      '',
    ]);
    const to = stream();
    writes.push({stream: to, bytes: int(3) === 0, parts: [`${marker}${noise}`]});
    kept.set(marker, to);
    // One secret in two to four pieces, each piece possibly on the other stream or sharing a write with text.
    const which = int(2);
    const secret = secrets[which] as string;
    const cuts = [...new Set(Array.from({length: 1 + int(3)}, () => 1 + int(secret.length - 1)))].sort(
      (a, b) => a - b,
    );
    const bounds = [0, ...cuts, secret.length];
    const target = stream();
    for (let piece = 0; piece + 1 < bounds.length; piece++) {
      const slice: StreamPart = [which, bounds[piece] as number, bounds[piece + 1] as number];
      const parts: StreamPart[] = piece === 0 && int(2) === 0 ? [' then ', slice] : [slice];
      writes.push({stream: int(4) === 0 ? stream() : target, bytes: int(3) === 0, parts});
    }
    if (int(2) === 0) writes.push({stream: target, bytes: false, parts: ['\n']});
  }
  return {secrets, writes, kept};
}

test('streamed output: secrets written in pieces never appear whole, escapes are shown, other text survives', async () => {
  await project.writeWorkflow('stream', {
    'workflow.yaml': manifest('stream'),
    'workflow.ts': streamingWorkflow,
  });
  const built = await project.cli(['build', 'stream']);
  assert.equal(built.exitCode, 0, built.stderr);
  for (let i = 0; i < STREAM_CASES; i++) {
    const {secrets, writes, kept} = generateStream(i);
    const env = {FUZZ_STREAM_TOKEN: secrets[0], FUZZ_DB_PASS: secrets[1]};
    const input = JSON.stringify({writes});
    for (const json of [false, true]) {
      const what = `stream case ${i}${json ? ' --json' : ''}`;
      const result = await project.cli(['run', 'stream', '--input', input, ...(json ? ['--json'] : [])], {
        env,
      });
      assert.equal(result.exitCode, 0, `${what}: ${result.stderr}`);
      if (json) assertOneCodedEnvelope(result, what);
      for (const [name, output] of [
        ['stdout', result.stdout],
        ['stderr', result.stderr],
      ] as const) {
        for (const secret of secrets)
          assert.ok(!output.includes(secret), `${what}: a secret on ${name}:\n${output}`);
        assert.ok(!output.includes('\u001b'), `${what}: a raw escape on ${name}:\n${JSON.stringify(output)}`);
        // Every marker written here arrives, in the order written.
        const markers = [...kept]
          .filter(([, to]) => (json ? 'stderr' : to) === name)
          .map(([marker]) => marker);
        let from = 0;
        for (const marker of markers) {
          const at = output.indexOf(marker, from);
          assert.ok(at >= from, `${what}: ${marker} missing or out of order on ${name}:\n${output}`);
          from = at + marker.length;
        }
      }
      const shown = result.stdout + result.stderr;
      assert.ok(shown.includes('[REDACTED]'), `${what}: the secrets are shown as [REDACTED]`);
      for (const write of writes) {
        const literal = write.parts.filter((p) => typeof p === 'string').join('');
        if (literal.includes('\u001b[31m')) assert.ok(shown.includes('\\x1b[31m'), `${what}: escape shown`);
      }
    }
  }
});

// Entrypoint paths: hostile `entrypoint` values (owned folders at any depth and in any case, `..`, absolute paths,
// both separators, odd extensions, control characters, Unicode) are each accepted exactly when the path is safe, or
// rejected with one coded error at the value. Through the CLI, a handful of them (and entrypoints reached through a
// linked folder) build or fail with one coded, located error, and no authored file is ever deleted.
const ENTRYPOINT_CASES = 500;
const CLI_ENTRYPOINT_CASES = 6;

const entrypointFolders = [
  'dist',
  'generated',
  '.generated',
  'node_modules',
  'src',
  'lib',
  '.hidden',
  'Dist',
  'DIST',
  'GeNeRaTeD',
  '.Generated',
  'Node_Modules',
  'dist.',
  'dist ',
  'distribution',
  'ｄｉｓｔ',
  'dïst',
  '..',
  '.',
  '',
  '~',
  'C:',
  '\u200b',
  '🚀',
  'İ',
];
const entrypointFiles = [
  'main.ts',
  'workflow.ts',
  'main.js',
  'main.mts',
  'types.d.ts',
  'main.TS',
  '.ts',
  'main.tsx',
  'мой.ts',
  'main.ts.ts',
  'a b.ts',
  'main.ts\u0000',
  'ma\u0000in.ts',
  'line\nbreak.ts',
  'e\u0301.ts',
  '😀.ts',
];
const entrypointPrefixes = ['/', '\\', '~/', 'C:\\', 'c:/', '\\\\server\\share\\', 'file:///'];

function generateEntrypoint(index: number): string {
  seedCase(3, index);
  const folders = Array.from({length: int(4)}, () => pick(entrypointFolders));
  const path = [...folders, pick(entrypointFiles)].join(pick(['/', '/', '\\', '//', '/./']));
  return int(6) === 0 ? `${pick(entrypointPrefixes)}${path}` : path;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/u;

/** The entrypoint rule of docs/manifest.md, stated on its own: a relative .ts path outside the owned folders. */
function isSafeEntrypoint(path: string): boolean {
  const parts = path.split(/[\\/]/);
  const folders = parts
    .slice(0, -1)
    .filter((part) => part !== '' && part !== '.')
    .map((part) => part.replace(/[. ]+$/, '').toLowerCase());
  return (
    !/^([\\/~]|[A-Za-z]:)/.test(path) &&
    !parts.includes('..') &&
    /[^\\/]\.ts$/.test(path) &&
    !path.endsWith('.d.ts') &&
    !controlCharacter.test(path) &&
    !['dist', 'generated', '.generated'].includes(folders[0] ?? '') &&
    !folders.includes('node_modules')
  );
}

test('entrypoint paths: each generated value is accepted exactly when safe, or rejected with one located code', () => {
  let accepted = 0;
  for (let i = 0; i < ENTRYPOINT_CASES; i++) {
    const value = generateEntrypoint(i);
    const text = manifest('fuzz', `entrypoint: ${JSON.stringify(value)}\n`);
    const result = parseManifest(text, `/fuzz/${i}/workflow.yaml`);
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    const what = `case ${i} ${JSON.stringify(value)}`;
    if (isSafeEntrypoint(value)) {
      accepted++;
      assert.deepEqual(errors, [], what);
      assert.equal(result.manifest?.entrypoint, value, what);
      continue;
    }
    assert.deepEqual(
      errors.map((d) => [d.code, d.location?.line, d.location?.column]),
      [['STRATOS_MANIFEST_ENTRYPOINT_INVALID', 5, 13]],
      what,
    );
  }
  assert.ok(accepted > 20 && accepted < ENTRYPOINT_CASES - 100, `both outcomes are exercised (${accepted})`);
});

/** Where a relative entrypoint's file lives in the workflow folder: both separators count. */
const entrypointFile = (value: string) => value.replaceAll('\\', '/');

test('entrypoint paths through the CLI: build, clean and build again delete no authored file', async () => {
  const fuzz = await createTempProject('stratos-fuzz-entry-');
  try {
    const cases: {name: string; value: string; safe: boolean; link?: string}[] = [];
    let safe = 0;
    for (let i = ENTRYPOINT_CASES; cases.length < CLI_ENTRYPOINT_CASES; i++) {
      const value = generateEntrypoint(i);
      const creatable = !/^([\\/~]|[A-Za-z]:)/.test(value) && !value.split(/[\\/]/).includes('..');
      if (!creatable || controlCharacter.test(value) || /[\\/]$/.test(value)) continue;
      const isSafe = isSafeEntrypoint(value);
      if (isSafe ? safe >= CLI_ENTRYPOINT_CASES / 2 : cases.length - safe >= CLI_ENTRYPOINT_CASES / 2)
        continue;
      if (isSafe) safe++;
      cases.push({name: `entry-${cases.length}`, value, safe: isSafe});
    }
    // Symlink-ish: a safe-looking path whose folder is a link into dist/ or generated/ of the workflow.
    for (const target of ['dist', 'generated']) {
      cases.push({name: `entry-${cases.length}`, value: 'linked/main.ts', safe: true, link: target});
    }
    const authored = new Map<string, string>();
    for (const entry of cases) {
      const directory = await fuzz.writeWorkflow(entry.name, {
        'workflow.yaml': manifest(entry.name, `entrypoint: ${JSON.stringify(entry.value)}\n`),
      });
      const file = join(
        directory,
        entry.link ?? '',
        entry.link === undefined ? entrypointFile(entry.value) : 'main.ts',
      );
      await mkdir(dirname(file), {recursive: true});
      await writeFile(file, echoWorkflow);
      authored.set(file, echoWorkflow);
      if (entry.link !== undefined) await symlink(entry.link, join(directory, 'linked'), 'dir');
    }
    for (const args of [['build'], ['clean'], ['build']]) {
      const result = await fuzz.cli([...args, '--json']);
      assertOneCodedEnvelope(result, args.join(' '));
      for (const [file, content] of authored) {
        assert.equal(
          await readFile(file, 'utf8').catch(() => 'deleted'),
          content,
          `${args.join(' ')}: ${file}`,
        );
      }
      if (args[0] !== 'build') continue;
      const workflows = (result.json as {ok: boolean; data?: BuiltList; error?: {details: BuiltList}}).ok
        ? (result.json as {data: BuiltList}).data.workflows
        : (result.json as {error: {details: BuiltList}}).error.details.workflows;
      for (const entry of cases) {
        const built = workflows.find((w) => w.name === entry.name);
        const what = `${args.join(' ')} ${JSON.stringify(entry.value)}${entry.link === undefined ? '' : ` -> ${entry.link}`}`;
        assert.ok(built !== undefined, what);
        if (built.status !== 'failed') {
          assert.ok(entry.safe && entry.link === undefined, `${what}: built`);
          continue;
        }
        const errors = built.diagnostics.filter((d) => d.severity === 'error');
        assert.equal(errors.length, 1, `${what}: ${JSON.stringify(errors)}`);
        assert.ok(knownCodes.has(errors[0]!.code) && errors[0]!.location?.file !== undefined, what);
        if (!entry.safe) assert.equal(errors[0]!.code, 'STRATOS_MANIFEST_ENTRYPOINT_INVALID', what);
        // Through the link, the entrypoint really is an authored file in an owned folder.
        if (entry.link !== undefined)
          assert.equal(errors[0]!.code, 'STRATOS_BUILD_AUTHORED_IN_OWNED_FOLDER', what);
        if (entry.safe && entry.link === undefined) assert.fail(`${what}: a safe entrypoint failed to build`);
      }
    }
  } finally {
    await fuzz.remove();
  }
});

interface BuiltList {
  workflows: {
    name: string;
    status: string;
    diagnostics: {code: string; severity: string; location?: {file: string}}[];
  }[];
}

const ALIAS_CASES = 120;

/**
 * One manifest whose agents section (free-form settings, so any shape is accepted there) is built from anchors and
 * aliases: fan-out bombs of random width and depth, long chains, many aliases of one value, merge keys, aliases
 * as keys, redefined anchors, an alias inside its own anchor, an alias without an anchor. `expansion` is what the
 * fan-out stands for when expanded, `aliases` how many aliases are written.
 */
function generateAliasManifest(index: number): {text: string; expansion: number; aliases: number} {
  seedCase(3, index);
  const lines: string[] = [];
  let expansion = 0;
  let aliases = 0;
  switch (int(8)) {
    case 0: {
      const width = 2 + int(11);
      const depth = 1 + int(8);
      lines.push(`  l0: &l0 {v: [${Array(width).fill('x').join(', ')}]}`);
      for (let level = 1; level <= depth; level++) {
        const refs = Array(width)
          .fill(`*l${level - 1}`)
          .join(', ');
        lines.push(
          pick([`  l${level}: &l${level} {v: [${refs}]}`, `  l${level}: &l${level}\n    v: [${refs}]`]),
        );
      }
      expansion = width ** (depth + 1);
      aliases = width * depth;
      break;
    }
    case 1: {
      const length = 1 + int(1500);
      lines.push('  c0: &c0 {v: 1}');
      for (let k = 1; k <= length; k++) lines.push(`  c${k}: &c${k} {v: *c${k - 1}}`);
      aliases = length;
      expansion = length * length;
      break;
    }
    case 2: {
      const copies = 1 + int(1500);
      lines.push('  base: &base {harness: claude-code, model: m}');
      for (let k = 0; k < copies; k++) lines.push(`  copy${k}: *base`);
      aliases = copies;
      expansion = copies * 5;
      break;
    }
    case 3:
      lines.push('  base: &base {harness: claude-code}', '  merged: {<<: *base, effort: high}');
      lines.push(`  twice: {<<: [*base, *base], ${pick(['x: 1', '<<: *base'])}}`);
      aliases = 3 + int(2);
      break;
    case 4:
      lines.push('  keyed: {? &k name : 1, other: {*k : 2}}');
      aliases = 1;
      break;
    case 5:
      lines.push(
        '  a: &same {v: 1}',
        '  b: &same {v: 2}',
        '  c: *same',
        `  d: ${pick(['*same', '[*same, *same]'])}`,
      );
      aliases = 3;
      break;
    case 6:
      lines.push(
        pick(['  self: &self {v: *self}', '  outer: &o\n    inner: {v: [*o]}', '  l: &l [x, [*l]]']),
      );
      aliases = 1;
      break;
    default:
      lines.push(`  orphan: ${pick(['*nowhere', '{v: *later}', '[*a, *b]'])}`, '  later: &later {v: 1}');
      aliases = 2;
      break;
  }
  const text = `${manifest(`alias-${index}`)}agents:\n${lines.join('\n')}\n`;
  return {text, expansion, aliases};
}

test('YAML aliases: generated anchors, aliases, merge keys and bombs are accepted or get one coded, located error', {
  timeout: 120_000,
}, async () => {
  for (let i = 0; i < ALIAS_CASES; i++) {
    const {text, expansion, aliases} = generateAliasManifest(i);
    let result: ReturnType<typeof parseManifest>;
    try {
      result = parseManifest(text, `/fuzz/alias-${i}/workflow.yaml`);
    } catch (error) {
      assert.fail(`alias case ${i} threw ${(error as Error).message}:\n${text.slice(0, 500)}`);
    }
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    assert.equal(
      result.manifest === undefined,
      errors.length > 0,
      `alias case ${i}: a manifest exactly when no error`,
    );
    for (const diagnostic of result.diagnostics) {
      assert.ok(knownCodes.has(diagnostic.code), `alias case ${i}: unknown code ${diagnostic.code}`);
      assert.ok(
        (diagnostic.location?.line ?? 0) >= 1 && (diagnostic.location?.column ?? 0) >= 1,
        `alias case ${i}`,
      );
    }
    const limit = errors.filter((d) => d.code === 'STRATOS_MANIFEST_ALIAS_LIMIT');
    if (aliases > 1000 || expansion > 100_000) {
      assert.equal(
        limit.length,
        1,
        `alias case ${i}: over the limits:\n${JSON.stringify(result.diagnostics)}`,
      );
      assert.equal(errors.length, 1, `alias case ${i}: the limit is the only error`);
    }
    if (limit.length > 0)
      assert.match(limit[0]?.message ?? '', /\(line \d+, column \d+\)/, `alias case ${i}`);
  }
  // A sample through the real CLI: one `list`, one envelope, every workflow listed with coded findings.
  const aliasProject = await createTempProject('stratos-fuzz-aliases-');
  try {
    for (let i = 0; i < 12; i++) {
      await aliasProject.writeWorkflow(`alias-${i}`, {'workflow.yaml': generateAliasManifest(i).text});
    }
    const result = await aliasProject.cli(['list', '--json']);
    assertOneCodedEnvelope(result, 'list of alias cases');
    const listed = (result.json as {data: {workflows: {diagnostics: {code: string}[]}[]}}).data.workflows;
    assert.equal(listed.length, 12);
    for (const entry of listed) for (const d of entry.diagnostics) assert.ok(knownCodes.has(d.code));
  } finally {
    await aliasProject.remove();
  }
});

/** The special files every user-named path is probed with; `make` creates one at `path` (absolute). */
const specialFiles = [
  {kind: 'a FIFO', make: (path: string) => execFileSync('mkfifo', [path]), missing: false},
  {kind: 'a directory', make: (path: string) => mkdirSync(path), missing: false},
  {kind: '/dev/zero', make: (path: string) => symlinkSync('/dev/zero', path), missing: false},
  {kind: '/dev/null', make: (path: string) => symlinkSync('/dev/null', path), missing: false},
  {kind: 'a dangling link', make: (path: string) => symlinkSync(`${path}.nowhere`, path), missing: true},
  {
    kind: 'a link loop',
    make: (path: string) => {
      symlinkSync(`${path}.loop`, path);
      symlinkSync(path, `${path}.loop`);
    },
    missing: true,
  },
] as const;

test('special files: a {file:} reference, --input-file or case file that is not a regular file gets one coded error, never a hang', {
  timeout: 180_000,
}, async () => {
  const special = await createTempProject('stratos-fuzz-special-');
  try {
    const cases = await special.writeWorkflow('cased', {
      'workflow.yaml': manifest('cased'),
      'workflow.ts': echoWorkflow,
    });
    mkdirSync(join(cases, 'tests'));
    for (const [index, file] of specialFiles.entries()) {
      seedCase(4, index);
      const path = join(special.cwd, `special-${index}`);
      file.make(path);
      // The reference is written absolute or relative to the workflow folder, picked by the seed.
      const directory = join(special.projectRoot, `ref-${index}`);
      const reference = pick([path, relative(directory, path)]);
      await special.writeWorkflow(`ref-${index}`, {
        'workflow.yaml': manifest(
          `ref-${index}`,
          `mcp:\n  servers:\n    tools:\n      type: stdio\n      command: ${JSON.stringify(process.execPath)}\n      env:\n        SECRET: ${JSON.stringify(`{file:${reference}}`)}\n`,
        ),
      });
      file.make(
        join(cases, 'tests', `${pick(['case', 'probe', 'x'])}-${index}.${pick(['yaml', 'yml', 'json'])}`),
      );

      const input = await special.cli([
        'run',
        'cased',
        '--input-file',
        pick([path, relative(special.cwd, path)]),
        '--json',
      ]);
      assertOneCodedEnvelope(input, `--input-file ${file.kind}`);
      assert.equal(
        (input.json as {error: {code: string}}).error.code,
        'STRATOS_INPUT_FILE_UNREADABLE',
        file.kind,
      );
    }

    const built = await special.cli(['build', '--json']);
    assertOneCodedEnvelope(built, 'build of {file:} references');
    const workflows = (
      built.json as {
        error: {details: {workflows: {name: string; diagnostics: {code: string; severity: string}[]}[]}};
      }
    ).error.details.workflows;
    for (const [index, file] of specialFiles.entries()) {
      const errors = workflows
        .find((w) => w.name === `ref-${index}`)
        ?.diagnostics.filter((d) => d.severity === 'error');
      assert.deepEqual(
        errors?.map((d) => d.code),
        [file.missing ? 'STRATOS_CONFIG_FILE_MISSING' : 'STRATOS_CONFIG_FILE_NOT_REGULAR'],
        `{file:} ${file.kind}`,
      );
    }

    const tested = await special.cli(['test', 'cased', '--json']);
    assertOneCodedEnvelope(tested, 'test with special case files');
    const reports = (
      tested.json as {error: {details: {cases: {status: string; problems: {code: string}[]}[]}}}
    ).error.details.cases;
    // Each special file is one errored case (a link loop's second link is a case name too).
    assert.ok(reports.length >= specialFiles.length, JSON.stringify(reports));
    for (const report of reports) {
      assert.equal(report.status, 'errored', JSON.stringify(report));
      assert.deepEqual(
        report.problems.map((p) => p.code),
        ['STRATOS_TEST_CASE_INVALID'],
      );
    }
  } finally {
    await special.remove();
  }
});
