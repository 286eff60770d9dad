// `stratos doctor` through the real CLI, in a temp project with its own STRATOS_HOME and HOME, no provider keys
// and Ollama on a closed 127.0.0.1 port: what it reports does not depend on this machine beyond the repository.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {findClosedPort} from '../../helpers/closed-port.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

interface Check {
  area: string;
  subject: string;
  status: 'ok' | 'warning' | 'problem';
  message: string;
  fix?: string;
}

let project: TempProject;
let env: NodeJS.ProcessEnv;

before(async () => {
  project = await createTempProject('stratos-doctor-');
  const closed = `http://127.0.0.1:${await findClosedPort()}`;
  // Empty values count as unset: the developer's own keys and config folders never leak in.
  env = {
    OLLAMA_HOST: closed,
    ANTHROPIC_API_KEY: '',
    ANTHROPIC_AUTH_TOKEN: '',
    OPENAI_API_KEY: '',
    AZURE_OPENAI_API_KEY: '',
    ANTHROPIC_BASE_URL: closed,
    OPENAI_BASE_URL: closed,
    CLAUDE_CONFIG_DIR: '',
    XDG_CONFIG_HOME: '',
    CODEX_HOME: '',
  };
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
});

after(() => project.remove());

test('a healthy setup: every area is checked, warnings carry a fix, exit 0', async () => {
  const result = await project.cli(['doctor', '--json'], {env});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.equal(result.json.ok, true);
  const checks: Check[] = result.json.data.checks;
  const areas = new Set(checks.map((c) => c.area));
  for (const area of ['node', 'harness', 'ollama', 'skill', 'discovery', 'workflow'])
    assert.ok(areas.has(area), area);
  assert.equal(checks.find((c) => c.area === 'node')?.status, 'ok');
  assert.deepEqual(
    checks.filter((c) => c.area === 'discovery').map((c) => c.subject),
    [project.projectRoot, project.userRoot],
  );
  assert.equal(checks.find((c) => c.area === 'workflow' && c.subject === 'echo')?.status, 'ok');
  // Ollama is not running, but no workflow needs it: worth knowing, not a failure.
  const ollama = checks.find((c) => c.area === 'ollama')!;
  assert.equal(ollama.status, 'warning');
  for (const check of checks.filter((c) => c.status !== 'ok'))
    assert.ok(check.fix, `${check.subject} has a fix`);
  assert.equal(result.json.data.summary.problems, 0);

  const readable = await project.cli(['doctor'], {env});
  assert.equal(readable.exitCode, 0);
  assert.match(readable.stdout, /^✓ node: Node\.js \d+\.\d+\.\d+\.$/m);
  assert.match(readable.stdout, /^! ollama: .*\n {2}fix: /m);
  assert.match(readable.stdout, /^No problems; \d+ warnings? about what some workflows may need\.$/m);
});

test('a broken manifest, a harness and Ollama that workflows need: problems with fixes, exit 1', async () => {
  const broken = await createTempProject('stratos-doctor-broken-');
  try {
    await broken.writeWorkflow('bad', {'workflow.yaml': 'name: Bad_Name\n', 'workflow.ts': echoWorkflow});
    await broken.writeWorkflow('agentic', {
      'workflow.yaml': manifest('agentic', 'agents:\n  writer:\n    harness: claude-code\n'),
      'workflow.ts': echoWorkflow,
    });
    await broken.writeWorkflow('decides', {
      'workflow.yaml': manifest(
        'decides',
        'decisions:\n  kind:\n    provider: ollama\n    model: qwen3:8b\n',
      ),
      'workflow.ts': echoWorkflow,
    });
    const result = await broken.cli(['doctor', '--json'], {env});
    assert.equal(result.exitCode, 1, result.stdout + result.stderr);
    assert.equal(result.json.error.code, 'STRATOS_DOCTOR_PROBLEMS');
    const checks: Check[] = result.json.error.details.checks;
    const problems = checks.filter((c) => c.status === 'problem');
    const bad = problems.find((c) => c.area === 'workflow' && c.message.includes('STRATOS_MANIFEST'));
    assert.ok(bad, 'the broken manifest is a problem');
    assert.match(bad.message, /workflow\.yaml:\d+:\d+/);
    assert.match(bad.fix!, /stratos list/);
    // Without a key or login, the harness a workflow names needs fixing (installed or not, it is not ready).
    const harness = problems.find((c) => c.area === 'harness' && c.subject === 'claude-code');
    assert.ok(harness, 'the harness a workflow uses is a problem');
    assert.match(harness.message, /Workflow 'agentic' uses it/);
    const ollama = problems.find((c) => c.area === 'ollama');
    assert.ok(ollama, 'Ollama is a problem when a workflow has decisions');
    assert.match(ollama.message, /Workflow 'decides' uses it/);
    for (const check of problems) assert.ok(check.fix, `${check.subject} has a fix`);

    const readable = await broken.cli(['doctor'], {env});
    assert.equal(readable.exitCode, 1);
    // A failed command prints its report on stderr, then the error.
    assert.match(readable.stderr, /^✗ workflow: .*STRATOS_MANIFEST/m);
    assert.match(readable.stderr, /^error STRATOS_DOCTOR_PROBLEMS: \d+ problems need fixing/m);
  } finally {
    await broken.remove();
  }
});

test('an invalid OLLAMA_HOST is a problem even when no workflow uses Ollama', async () => {
  const result = await project.cli(['doctor', '--json'], {env: {...env, OLLAMA_HOST: 'not a url ::'}});
  assert.equal(result.exitCode, 1, result.stdout);
  const ollama = (result.json.error.details.checks as Check[]).find((c) => c.area === 'ollama')!;
  assert.equal(ollama.status, 'problem');
  assert.ok(ollama.fix);
});
