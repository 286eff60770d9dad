// Agent configurations in workflow.yaml are checked at build and in `list`, with the same validator createAgent
// uses, each finding located at its field: nothing waits for a run to reach createAgent.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

let project: TempProject;

const agents = `mcp:
  servers:
    real:
      type: http
      url: http://127.0.0.1:9/mcp
agents:
  harnessless:
    harness: nope
  effortful:
    harness: codex
    effort: max
  mcpless:
    allowedMcps: [real, missing]
  toolless:
    allowedTools: [Read, teleport]
  promptless:
    systemPrompt: {file: prompts/missing.md}
  broken:
    systemPrompt: {template: prompts/broken.hbs, variables: {name: x}}
  unmapped:
    models: [openai/gpt-5, google/not-a-model]
  fine:
    harness: claude-code
    effort: high
    allowedMcps: [real]
    systemPrompt: {template: prompts/fine.hbs}
`;

before(async () => {
  project = await createTempProject('stratos-agent-config-');
  await project.writeWorkflow('configs', {
    'workflow.yaml': manifest('configs', agents),
    'workflow.ts': echoWorkflow,
    'prompts/broken.hbs': 'Hello {{#if name}} unclosed',
    'prompts/fine.hbs': 'Hello {{name}}',
  });
});

after(() => project.remove());

/** The findings as `code path line`, sorted. */
function summarize(diagnostics: {code: string; path?: string; location?: {line: number}}[]): string[] {
  return diagnostics.map((d) => `${d.code} ${d.path} ${d.location?.line}`).sort();
}

// Lines of the fields in the manifest above (the manifest helper writes four lines before `mcp:`).
const expected = [
  'STRATOS_AGENT_CONFIG_INVALID agents.effortful.effort 15',
  'STRATOS_AGENT_CONFIG_INVALID agents.harnessless.harness 12',
  'STRATOS_AGENT_MCP_UNKNOWN agents.mcpless.allowedMcps 17',
  'STRATOS_AGENT_MODEL_UNMAPPED agents.unmapped.models 25',
  'STRATOS_AGENT_TOOL_UNKNOWN agents.toolless.allowedTools 19',
  'STRATOS_PROMPT_FILE_MISSING agents.promptless.systemPrompt 21',
  'STRATOS_PROMPT_INVALID agents.broken.systemPrompt 23',
];

test('build fails with one located finding per invalid agent configuration and compiles nothing', async () => {
  const result = await project.cli(['build', 'configs', '--json']);
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  const [built] = result.json.error.details.workflows;
  assert.equal(built.status, 'failed');
  assert.deepEqual(summarize(built.diagnostics), expected);
  for (const diagnostic of built.diagnostics) assert.match(diagnostic.location.file, /workflow\.yaml$/);
  assert.equal(existsSync(join(project.projectRoot, 'configs', 'dist')), false, 'nothing was compiled');
  const readable = await project.cli(['build', 'configs']);
  assert.match(readable.stderr, /workflow\.yaml:12:\d+/);
  assert.match(readable.stderr, /harness' in workflow\.yaml agents\.harnessless must be one of/);
});

test('list reports the same findings as diagnostics of the workflow', async () => {
  const result = await project.cli(['list', '--json']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const [listed] = result.json.data.workflows;
  assert.deepEqual(summarize(listed.diagnostics), expected);
});

test('a usd budget over a configured agent whose model has no price fails the build, unless tokens are bounded too', async () => {
  const budgeted = (budget: string) =>
    manifest(
      'budgeted',
      `budget:
${budget}
agents:
  priced:
    harness: claude-code
    model: claude-sonnet-4-5
  unpriced:
    harness: claude-code
    model: claude-imaginary-9
  local:
    harness: codex
    provider: ollama
    model: qwen3:8b
  preferred:
    models: [anthropic/claude-sonnet-4-5]
`,
    );
  await project.writeWorkflow('budgeted', {
    'workflow.yaml': budgeted('  usd: 1'),
    'workflow.ts': echoWorkflow,
  });
  const refused = await project.cli(['build', 'budgeted', '--json']);
  assert.equal(refused.exitCode, 1, refused.stdout + refused.stderr);
  const [built] = refused.json.error.details.workflows;
  assert.deepEqual(summarize(built.diagnostics), ['STRATOS_BUDGET_PRICE_UNKNOWN agents.unpriced.model 13']);
  assert.match(
    built.diagnostics[0].message,
    /model 'claude-imaginary-9' on provider 'anthropic', whose price is unknown/,
  );
  await project.writeWorkflow('budgeted', {
    'workflow.yaml': budgeted('  usd: 1\n  tokens: 100000'),
    'workflow.ts': echoWorkflow,
  });
  const built2 = await project.cli(['build', 'budgeted', '--json']);
  assert.equal(built2.exitCode, 0, built2.stdout + built2.stderr);
});
