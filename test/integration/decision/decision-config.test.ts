// Decision configurations in workflow.yaml are checked at build and in list diagnostics, with the line and column
// of the field, by the same field check decision() applies to overrides and code settings.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {type OllamaServer, startOllamaServer} from '../../servers/ollama/index.ts';

let project: TempProject;
let server: OllamaServer;

before(async () => {
  server = await startOllamaServer({
    models: [
      {name: 'qwen3:8b', capabilities: ['completion', 'tools']},
      {name: 'embedder', capabilities: ['embedding']},
    ],
  });
  project = await createTempProject('stratos-decision-config-');
  for (const model of ['qwen3:8b', 'absent:1b', 'embedder']) {
    const name = `local-${model.replace(/[^a-z0-9]/g, '')}`;
    await project.writeWorkflow(name, {
      'workflow.yaml': manifest(
        name,
        `decisions:\n  triage:\n    baseUrl: ${server.url}\n    model: ${model}\n`,
      ),
      'workflow.ts': echoWorkflow,
    });
  }
  await project.writeWorkflow('hosted', {
    'workflow.yaml': manifest('hosted', 'decisions:\n  triage:\n    provider: jev\n    model: jev-latest\n'),
    'workflow.ts': echoWorkflow,
  });
  await project.writeWorkflow('sloppy', {
    'workflow.yaml': manifest(
      'sloppy',
      'decisions:\n  triage:\n    model: ""\n    baseUrl: localhost:11434\n    temperature: 0\n    options: [1]\n',
    ),
    'workflow.ts': echoWorkflow,
  });
  await project.writeWorkflow('fine', {
    'workflow.yaml': manifest(
      'fine',
      'decisions:\n  triage:\n    provider: ollama\n    model: qwen3:8b\n    baseUrl: http://127.0.0.1:9\n    options:\n      temperature: 0\n',
    ),
    'workflow.ts': echoWorkflow,
  });
});

after(async () => {
  await server.close();
  await project.remove();
});

test('another provider is a configuration error at build, located at the field', async () => {
  const result = await project.cli(['build', 'hosted', '--json']);
  assert.equal(result.exitCode, 1);
  const text = JSON.stringify(result.json);
  assert.match(text, /STRATOS_DECISION_PROVIDER_UNSUPPORTED/);
  const diagnostics = collectDiagnostics(result.json);
  const provider = diagnostics.find((d) => d.code === 'STRATOS_DECISION_PROVIDER_UNSUPPORTED');
  assert.ok(provider, text);
  assert.equal(provider.location.line, 7);
  assert.match(provider.message, /decisions\.triage\.provider/);
});

test('wrong values and unknown fields are each reported, in build and in list', async () => {
  const built = await project.cli(['build', 'sloppy', '--json']);
  assert.equal(built.exitCode, 1);
  const diagnostics = collectDiagnostics(built.json).filter(
    (d) => d.code === 'STRATOS_DECISION_CONFIG_INVALID' && d.path !== undefined,
  );
  const paths = diagnostics.map((d) => d.path).sort();
  assert.deepEqual(paths, [
    'decisions.triage.baseUrl',
    'decisions.triage.model',
    'decisions.triage.options',
    'decisions.triage.temperature',
  ]);
  assert.equal(diagnostics.find((d) => d.path === 'decisions.triage.temperature')!.location.line, 9);
  const listed = await project.cli(['list', '--json']);
  const text = JSON.stringify(listed.json);
  assert.match(text, /decisions\.triage\.baseUrl/);
  assert.match(text, /STRATOS_DECISION_CONFIG_INVALID/);
});

test('a valid decision configuration builds; an unreachable server leaves a warning that the model was not checked', async () => {
  const result = await project.cli(['build', 'fine', '--json']);
  assert.equal(result.exitCode, 0, result.stdout);
  assert.match(JSON.stringify(result.json.warnings), /STRATOS_OLLAMA_UNREACHABLE/);
});

test('an explicit build checks declared models: installed and able, else an error at the model field', async () => {
  const ok = await project.cli(['build', 'local-qwen38b', '--json']);
  assert.equal(ok.exitCode, 0, ok.stdout);
  const absent = await project.cli(['build', 'local-absent1b', '--json']);
  assert.equal(absent.exitCode, 1);
  const missing = collectDiagnostics(absent.json).find(
    (d) => d.code === 'STRATOS_OLLAMA_MODEL_NOT_INSTALLED',
  );
  assert.ok(missing, absent.stdout);
  assert.equal(missing.location.line, 8);
  assert.match(missing.message, /ollama pull absent:1b/);
  const embedder = await project.cli(['build', 'local-embedder', '--json']);
  assert.match(JSON.stringify(embedder.json), /STRATOS_OLLAMA_MODEL_CAPABILITY_MISSING/);
  assert.equal(server.requestsTo('/api/chat').length, 0, 'a build only reads metadata');
});

// biome-ignore lint/suspicious/noExplicitAny: envelopes of every shape
function collectDiagnostics(value: any): any[] {
  const found: unknown[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === 'object' && node !== null) {
      const record = node as Record<string, unknown>;
      if (typeof record.code === 'string' && typeof record.location === 'object') found.push(record);
      Object.values(record).forEach(visit);
    }
  };
  visit(value);
  return found;
}
