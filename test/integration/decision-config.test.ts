// Decision configurations in workflow.yaml are checked at build and in list diagnostics, with the line and column
// of the field, by the same field check decision() applies to overrides and code settings.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../helpers/temp-project.ts';

let project: TempProject;

before(async () => {
  project = await createTempProject('stratos-decision-config-');
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
      'decisions:\n  triage:\n    provider: ollama\n    model: qwen3:8b\n    baseUrl: http://127.0.0.1:11434\n    options:\n      temperature: 0\n',
    ),
    'workflow.ts': echoWorkflow,
  });
});

after(() => project.remove());

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

test('a valid decision configuration builds', async () => {
  const result = await project.cli(['build', 'fine', '--json']);
  assert.equal(result.exitCode, 0, result.stdout);
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
