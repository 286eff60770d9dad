// Ollama agents as configuration: `provider: ollama` needs an explicit Codex or OpenCode harness and one installed
// model named as Ollama names it, takes no effort and no hosted credentials; createAgent and build report the
// same findings (build at their source location), and an explicit build checks the declared local models against
// the server before MCP preparation.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {withoutHostedCredentials} from '../../../src/agents/harness-kit/agent-environment.ts';
import {resolveCodexProvider} from '../../../src/agents/harnesses/codex/provider-setup.ts';
import {resolveOpenCodeOllama} from '../../../src/agents/harnesses/opencode/ollama-provider.ts';
import {resolveAgentSettings} from '../../../src/agents/settings.ts';
import {validateAgentSettings} from '../../../src/agents/validate-agent-settings.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';
import {type OllamaServer, startOllamaServer} from '../../servers/ollama/index.ts';

const issues = (settings: Record<string, unknown>) =>
  validateAgentSettings({name: 'local', settings, mcpServers: []}).map((i) => `${i.code} ${i.field}`);

test('provider ollama: explicit codex or opencode harness, one model as named, no effort', () => {
  assert.deepEqual(issues({harness: 'codex', provider: 'ollama', model: 'qwen3:8b'}), []);
  assert.deepEqual(issues({harness: 'opencode', provider: 'ollama', model: 'library/qwen3:8b'}), []);
  assert.deepEqual(issues({provider: 'ollama', model: 'qwen3:8b'}), [
    'STRATOS_AGENT_CONFIG_INVALID provider',
  ]);
  assert.deepEqual(issues({harness: 'claude-code', provider: 'ollama', model: 'qwen3:8b'}), [
    'STRATOS_AGENT_CONFIG_INVALID harness',
  ]);
  assert.deepEqual(issues({harness: 'codex', provider: 'ollama'}), ['STRATOS_AGENT_CONFIG_INVALID model']);
  assert.deepEqual(issues({harness: 'codex', provider: 'ollama', models: ['openai/gpt-5']}), [
    'STRATOS_AGENT_CONFIG_INVALID models',
  ]);
  assert.deepEqual(issues({harness: 'opencode', provider: 'ollama', model: 'qwen3:8b', effort: 'high'}), [
    'STRATOS_AGENT_EFFORT_UNSUPPORTED effort',
  ]);
  const [message] = validateAgentSettings({
    name: 'local',
    settings: {provider: 'ollama', model: 'qwen3:8b'},
    mcpServers: [],
  });
  assert.match(message!.message, /Agent 'local' .*harness: codex or harness: opencode/);
});

test('createAgent settings: an effort from code on an Ollama agent of workflow.yaml is rejected', () => {
  const resolve = (code: Record<string, unknown>) =>
    resolveAgentSettings({
      name: 'local',
      layers: [
        {source: 'code', settings: code, codeFields: true},
        {
          source: 'yaml',
          settings: {harness: 'codex', provider: 'ollama', model: 'qwen3:8b'},
          codeFields: false,
        },
      ],
      mcpServers: [],
      resolvePath: (path) => path,
      invocationDirectory: '/work',
    });
  assert.equal(resolve({}).model, 'qwen3:8b');
  assert.throws(() => resolve({effort: 'low'}), {code: 'STRATOS_AGENT_EFFORT_UNSUPPORTED'});
  assert.throws(() => resolve({harness: 'claude-code'}), {code: 'STRATOS_AGENT_CONFIG_INVALID'});
});

test('native setup: the local endpoint from OLLAMA_HOST, no key, hosted credentials removed', () => {
  const env = {
    OLLAMA_HOST: '127.0.0.1:5555',
    OPENAI_API_KEY: 'sk-hosted',
    CODEX_API_KEY: 'sk-codex',
    OPENAI_BASE_URL: 'https://api.openai.com/v1',
    ANTHROPIC_AUTH_TOKEN: 'tok',
    PATH: '/bin',
  };
  const codex = resolveCodexProvider('ollama', env);
  assert.deepEqual(codex.config, {
    model_provider: 'stratos_ollama',
    model_providers: {
      stratos_ollama: {
        name: 'Ollama (http://127.0.0.1:5555)',
        base_url: 'http://127.0.0.1:5555/v1',
        wire_api: 'responses',
      },
    },
  });
  assert.deepEqual(codex.env, {OLLAMA_HOST: '127.0.0.1:5555', PATH: '/bin'});
  assert.equal(codex.apiKey, undefined);
  assert.equal(codex.isolateHome, true, 'a saved Codex login is never read');
  const opencode = resolveOpenCodeOllama('qwen3:8b', env);
  assert.deepEqual(opencode.model, {providerID: 'stratos-ollama', modelID: 'qwen3:8b'});
  assert.deepEqual(opencode.config.enabled_providers, ['stratos-ollama']);
  assert.match(JSON.stringify(opencode.config), /"baseURL":"http:\/\/127\.0\.0\.1:5555\/v1"/);
  assert.doesNotMatch(JSON.stringify(opencode.config), /apiKey/);
  assert.deepEqual(opencode.env, codex.env);
  assert.deepEqual(withoutHostedCredentials({AZURE_OPENAI_API_KEY: 'k', OLLAMA_HOST: 'x'}), {
    OLLAMA_HOST: 'x',
  });
  assert.throws(() => resolveCodexProvider('ollama', {OLLAMA_HOST: 'ftp://host'}), {
    code: 'STRATOS_OLLAMA_ENDPOINT_INVALID',
  });
});

let project: TempProject;
let server: OllamaServer;

before(async () => {
  server = await startOllamaServer({
    models: [
      {name: 'qwen3:8b', capabilities: ['completion', 'tools']},
      {name: 'gemma:2b', capabilities: ['completion']},
    ],
  });
  project = await createTempProject('stratos-ollama-agent-config-');
  await project.writeWorkflow('misconfigured', {
    'workflow.yaml': manifest(
      'misconfigured',
      `agents:
  harnessless:
    provider: ollama
    model: qwen3:8b
  claude:
    harness: claude-code
    provider: ollama
    model: qwen3:8b
  effortful:
    harness: codex
    provider: ollama
    model: qwen3:8b
    effort: high
`,
    ),
    'workflow.ts': echoWorkflow,
  });
  for (const model of ['qwen3:8b', 'absent:1b', 'gemma:2b']) {
    const name = `local-${model.replace(/[^a-z0-9]/g, '')}`;
    const flag = join(project.home, `${name}.mcp-started`);
    await project.writeWorkflow(name, {
      'workflow.yaml': manifest(
        name,
        `mcp:
  servers:
    counter:
      type: stdio
      command: /bin/sh
      args: ['-c', 'touch "$0"; exec "$@"', ${JSON.stringify(flag)}, ${JSON.stringify(process.execPath)}, ${JSON.stringify(SERVE_SCRIPT)}, counter, --stdio]
agents:
  coder:
    harness: opencode
    provider: ollama
    model: ${model}
`,
      ),
      'workflow.ts': echoWorkflow,
    });
  }
});

after(async () => {
  await server?.close();
  await project?.remove();
});

test('build reports each misconfigured Ollama agent at its field', async () => {
  const result = await project.cli(['build', 'misconfigured', '--json'], {env: {OLLAMA_HOST: server.url}});
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  const [built] = result.json.error.details.workflows;
  const found = built.diagnostics
    .map(
      (d: {code: string; path?: string; location?: {line: number}}) =>
        `${d.code} ${d.path} ${d.location?.line}`,
    )
    .sort();
  assert.deepEqual(found, [
    'STRATOS_AGENT_CONFIG_INVALID agents.claude.harness 10',
    'STRATOS_AGENT_CONFIG_INVALID agents.harnessless.provider 7',
    'STRATOS_AGENT_EFFORT_UNSUPPORTED agents.effortful.effort 17',
  ]);
});

test('an explicit build checks the declared local models before MCP preparation', async () => {
  const env = {OLLAMA_HOST: server.url};
  const ok = await project.cli(['build', 'local-qwen38b', '--json'], {env});
  assert.equal(ok.exitCode, 0, ok.stdout + ok.stderr);
  assert.ok(existsSync(join(project.home, 'local-qwen38b.mcp-started')), 'MCP preparation ran');

  const absent = await project.cli(['build', 'local-absent1b', '--json'], {env});
  assert.equal(absent.exitCode, 1, absent.stdout);
  const [missing] = absent.json.error.details.workflows[0].diagnostics;
  assert.equal(missing.code, 'STRATOS_OLLAMA_MODEL_NOT_INSTALLED');
  assert.equal(missing.location.line, 15, 'at agents.coder.model');
  assert.match(missing.message, /'absent:1b'.*ollama pull absent:1b/);
  assert.equal(existsSync(join(project.home, 'local-absent1b.mcp-started')), false, 'no MCP server started');

  const toolless = await project.cli(['build', 'local-gemma2b', '--json'], {env});
  assert.equal(toolless.exitCode, 1, toolless.stdout);
  const [lacking] = toolless.json.error.details.workflows[0].diagnostics;
  assert.equal(lacking.code, 'STRATOS_OLLAMA_MODEL_CAPABILITY_MISSING');
  assert.match(lacking.message, /'gemma:2b'.*does not advertise tools/);
  assert.equal(existsSync(join(project.home, 'local-gemma2b.mcp-started')), false);
  assert.deepEqual(
    [...new Set(server.requests.map((r) => r.path))].sort(),
    ['/api/show'],
    'a build reads metadata only: nothing is pulled, loaded or generated',
  );
});

test('an unreachable server at build leaves a warning; an invalid OLLAMA_HOST is an error', async () => {
  const unreachable = await project.cli(['build', 'local-qwen38b', '--json'], {
    env: {OLLAMA_HOST: 'http://127.0.0.1:9'},
  });
  assert.equal(unreachable.exitCode, 0, unreachable.stdout);
  assert.match(
    JSON.stringify(unreachable.json.warnings),
    /STRATOS_OLLAMA_UNREACHABLE.*no other endpoint was tried/,
  );
  const invalid = await project.cli(['build', 'local-qwen38b', '--json'], {env: {OLLAMA_HOST: 'ftp://x'}});
  assert.equal(invalid.exitCode, 1, invalid.stdout);
  assert.match(JSON.stringify(invalid.json), /STRATOS_OLLAMA_ENDPOINT_INVALID/);
});
