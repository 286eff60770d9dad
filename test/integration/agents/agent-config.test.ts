// Agent configuration without a harness: field-by-field precedence, prompt references and strict templates,
// tool-name mapping, and the admission limiter.
import assert from 'node:assert/strict';
import {mkdtemp, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {type HarnessRecord, harnessRecords} from '../../../src/agents/harnesses/registry.ts';
import {resolveAgentSettings} from '../../../src/agents/settings.ts';
import {resolveToolSelection} from '../../../src/agents/tool-names.ts';
import {validateAgentSettings} from '../../../src/agents/validate-agent-settings.ts';
import {listTools} from '../../../src/api/tools.ts';
import {mergeLayers} from '../../../src/config/precedence.ts';
import {mergePromptReferences, resolvePrompt} from '../../../src/config/prompts.ts';
import {AdmissionLimiter} from '../../../src/runtime/admission.ts';

const resolve = (layers: (Record<string, unknown> | undefined)[], servers = ['github', 'local']) =>
  resolveAgentSettings({
    name: 'reviewer',
    layers: layers.map((settings, index) => ({source: `layer ${index}`, settings, codeFields: index === 0})),
    mcpServers: servers,
    resolvePath: (path) => join('/work/dir', path),
    invocationDirectory: '/work/dir',
  });

test('settings resolve field by field: code, then overrides, then workflow.yaml, then defaults', () => {
  const settings = resolve([
    {effort: 'high'},
    {model: 'override-model'},
    {model: 'yaml-model', effort: 'low', allowedTools: ['read']},
  ]);
  assert.equal(settings.harness, 'claude-code');
  assert.equal(settings.model, 'override-model');
  assert.equal(settings.effort, 'high');
  assert.deepEqual(settings.allowedTools, ['read']);
  assert.deepEqual(settings.allowedMcps, ['github', 'local']);
  assert.equal(settings.workingDirectory, '/work/dir');
});

test('lists replace lower-priority lists; [] enables no MCP server; an unknown one is an error', () => {
  assert.deepEqual(
    resolve([undefined, {allowedMcps: ['local']}, {allowedMcps: ['github', 'local']}]).allowedMcps,
    ['local'],
  );
  assert.deepEqual(resolve([{allowedMcps: []}, undefined, {allowedMcps: ['github']}]).allowedMcps, []);
  assert.throws(() => resolve([{allowedMcps: ['nope']}]), {code: 'STRATOS_AGENT_MCP_UNKNOWN'});
});

test('prompt variables merge by name; a layer with only variables keeps the template', () => {
  const merged = mergeLayers(
    [
      {systemPrompt: {variables: {tone: 'formal', style: {a: 1}}}},
      {systemPrompt: {template: 'p.hbs', variables: {tone: 'casual', lang: 'en', style: {b: 2}}}},
    ],
    {mergeWith: {systemPrompt: mergePromptReferences}},
  );
  assert.deepEqual(merged.systemPrompt, {
    template: 'p.hbs',
    variables: {tone: 'formal', lang: 'en', style: {a: 1}},
  });
  assert.equal(mergePromptReferences('literal', {template: 'p.hbs'}), 'literal');
});

test('invalid settings, code-only fields in YAML and unsupported effort are configuration errors', () => {
  assert.throws(() => resolve([undefined, undefined, {model: 3}]), {code: 'STRATOS_AGENT_CONFIG_INVALID'});
  assert.throws(() => resolve([undefined, undefined, {hooks: {}}]), /can only be set in code/);
  assert.throws(() => resolve([{harness: 'codex', effort: 'max'}]), {code: 'STRATOS_AGENT_CONFIG_INVALID'});
  assert.throws(() => resolve([{harness: 'no-such-harness'}]), {code: 'STRATOS_AGENT_CONFIG_INVALID'});
});

test('validateAgentSettings reports every issue of one configuration, each with its field', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'stratos-agent-validate-'));
  await writeFile(join(directory, 'system.hbs'), 'You review.');
  const validate = (settings: Record<string, unknown>) =>
    validateAgentSettings({name: 'reviewer', settings, mcpServers: ['github'], directory});
  assert.deepEqual(
    validate({harness: 'codex', systemPrompt: {template: 'system.hbs'}, allowedMcps: ['github']}),
    [],
  );
  const issues = validate({
    harness: 'codex',
    effort: 'max',
    allowedMcps: ['github', 'nope'],
    allowedTools: ['bash', 'nonsense'],
    disallowedTools: ['read'],
    systemPrompt: {file: 'missing.md'},
    provider: 'anthropic',
  });
  assert.deepEqual(
    issues.map((issue) => [issue.code, issue.field]),
    [
      ['STRATOS_AGENT_CONFIG_INVALID', 'provider'],
      ['STRATOS_AGENT_CONFIG_INVALID', 'effort'],
      ['STRATOS_AGENT_TOOL_UNKNOWN', 'allowedTools'],
      ['STRATOS_AGENT_TOOL_UNKNOWN', 'disallowedTools'],
      ['STRATOS_AGENT_MCP_UNKNOWN', 'allowedMcps'],
      ['STRATOS_PROMPT_FILE_MISSING', 'systemPrompt'],
    ],
  );
  assert.match(issues[1]!.message, /effort 'max', which codex does not support; use one of minimal, low/);
  assert.match(issues[4]!.message, /'nope'/);
  assert.deepEqual(
    validate({harness: 'nonsense', effort: 'high'}).map((issue) => issue.field),
    ['harness'],
    'an unknown harness is one issue; effort is not judged against it',
  );
  assert.deepEqual(
    validate({hooks: {}}).map((i) => i.message.includes('can only be set in code')),
    [true],
  );
});

test('the harness registry is the one source of ids, packages, effort levels and tool tables', () => {
  const listed = listTools();
  assert.deepEqual(
    listed.harnesses.map((h) => [h.harness, h.package]),
    harnessRecords.map((record) => [record.id, record.sdkPackage]),
  );
  for (const record of harnessRecords) {
    assert.ok(record.install.startsWith(`npm install ${record.sdkPackage}`), record.install);
    // A harness without effort levels (ACP: the agent owns its reasoning settings) refuses every effort below.
    assert.ok(record.effortLevels.length > 0 || (record as HarnessRecord).settings !== undefined, record.id);
    // Every canonical name is mapped by every harness ([] when it has no separate tool).
    assert.deepEqual(Object.keys(record.tools.canonical).sort(), [...listed.canonicalNames].sort());
    for (const natives of Object.values(record.tools.canonical))
      for (const native of natives)
        assert.ok(native in record.tools.fixed || record.tools.removable.includes(native), native);
    assert.throws(() => resolve([{harness: record.id, effort: 'surely-not-a-level'}]), {
      code: 'STRATOS_AGENT_CONFIG_INVALID',
    });
  }
});

test('prompts: literal text, plain files, strict templates relative to the workflow directory', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'stratos-prompts-'));
  await writeFile(join(directory, 'plain.md'), 'Plain {{not rendered}}');
  await writeFile(join(directory, 'review.hbs'), 'Review {{pr.number}} in {{tone}} tone');
  const field = 'prompt';
  assert.equal(await resolvePrompt('Literal {{x}}', {directory, field}), 'Literal {{x}}');
  assert.equal(await resolvePrompt('Hi {{x}}', {directory, field, variables: {x: 'you'}}), 'Hi you');
  assert.equal(await resolvePrompt({file: 'plain.md'}, {directory, field}), 'Plain {{not rendered}}');
  assert.equal(
    await resolvePrompt(
      {template: 'review.hbs', variables: {tone: 'dry'}},
      {directory, field, variables: {pr: {number: 7}}},
    ),
    'Review 7 in dry tone',
  );
  await assert.rejects(resolvePrompt({template: 'review.hbs'}, {directory, field, variables: {tone: 'x'}}), {
    code: 'STRATOS_PROMPT_VARIABLE_MISSING',
  });
  await assert.rejects(resolvePrompt({file: 'missing.md'}, {directory, field}), {
    code: 'STRATOS_PROMPT_FILE_MISSING',
  });
});

test('tool selection maps shared and native names and only removes', () => {
  const claude = resolveToolSelection('claude-code', undefined, ['bash', 'WebFetch'], 'a');
  assert.ok(claude.removed.includes('Bash') && claude.removed.includes('WebFetch'));
  assert.ok(claude.enabled.includes('Read'));
  const allowed = resolveToolSelection('claude-code', ['read', 'grep'], undefined, 'a');
  assert.deepEqual(allowed.enabled, ['Read', 'Grep']);
  assert.ok(allowed.removed.includes('Bash'));
  assert.deepEqual(resolveToolSelection('codex', undefined, ['bash'], 'a').removed, ['shell']);
  assert.throws(() => resolveToolSelection('codex', undefined, ['read'], 'a'), {
    code: 'STRATOS_AGENT_TOOL_UNKNOWN',
  });
  assert.throws(() => resolveToolSelection('codex', undefined, ['edit'], 'a'), {
    code: 'STRATOS_AGENT_TOOL_UNKNOWN',
  });
  assert.throws(() => resolveToolSelection('claude-code', ['nonsense'], undefined, 'a'), {
    code: 'STRATOS_AGENT_TOOL_UNKNOWN',
  });
});

test('admission queues past maxActive in order and rejects past maxOutstanding', async () => {
  const limiter = new AdmissionLimiter({maxActive: 1, maxOutstanding: 2});
  const first = await limiter.acquire('a');
  const order: string[] = [];
  const second = limiter.acquire('b').then((release) => {
    order.push('b');
    return release;
  });
  await assert.rejects(limiter.acquire('c'), {code: 'STRATOS_AGENT_ADMISSION_LIMIT'});
  assert.deepEqual(limiter.snapshot(), {maxActive: 1, maxOutstanding: 2, active: 1, queued: 1});
  first();
  (await second)();
  assert.deepEqual(order, ['b']);
  assert.equal(limiter.snapshot().active, 0);
  const abort = new AbortController();
  const held = await limiter.acquire('d');
  const waiting = limiter.acquire('e', abort.signal);
  abort.abort(new Error('stop'));
  await assert.rejects(waiting, /stop/);
  held();
});
