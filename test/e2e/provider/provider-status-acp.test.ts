// `stratos provider status` asks each configured ACP agent's program what it is: the protocol-level test agent
// answers initialize with its name and capabilities, a command that is not installed is reported as such, and no
// program is left running.
import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {createTempProject, echoWorkflow, manifest} from '../../helpers/temp-project.ts';

const agentScript = new URL('../../servers/acp/test-agent.ts', import.meta.url).pathname;

test('provider status reports each ACP agent: installed, answering initialize, its capabilities', async () => {
  const project = await createTempProject('stratos-provider-acp-');
  try {
    const pidFile = join(project.home, 'probe.pid');
    await project.writeWorkflow('acp-status', {
      'workflow.yaml': manifest(
        'acp-status',
        `agents:
  tester:
    harness: acp
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(agentScript)}]
    env:
      ACP_TEST_PID_FILE: ${JSON.stringify(pidFile)}
      ACP_TEST_NO_HTTP_MCP: '1'
      ACP_TEST_SECRET: '{env:NEVER_READ}'
  absent:
    harness: acp
    command: /nonexistent/acp-agent
`,
      ),
      'workflow.ts': echoWorkflow,
    });
    const result = await project.cli(['provider', 'status', '--json']);
    assert.equal(result.exitCode, 0, result.stdout + result.stderr);
    const acp = result.json.data.harnesses.find((h: {harness: string}) => h.harness === 'acp');
    const byName = Object.fromEntries(acp.agents.map((a: {agent: string}) => [a.agent, a]));
    assert.equal(byName.tester.workflow, 'acp-status');
    assert.equal(byName.tester.answered, true, byName.tester.error);
    assert.deepEqual(byName.tester.agentInfo, {name: 'stratos-test-agent', version: '1.0.0'});
    assert.equal(byName.tester.capabilities.mcpHttp, false);
    assert.equal(byName.tester.capabilities.loadSession, false);
    assert.equal(byName.absent.installed, false);
    assert.match(byName.absent.error, /was not found/);
    const pid = Number(await readFile(pidFile, 'utf8'));
    assert.throws(() => process.kill(pid, 0), {code: 'ESRCH'}, 'the probed agent outlived the status call');
    const human = await project.cli(['provider', 'status']);
    assert.match(human.stdout, /agent acp-status\/tester .*answers as stratos-test-agent 1\.0\.0/);
    assert.match(human.stdout, /agent acp-status\/absent .*not installed/);
  } finally {
    await project.remove();
  }
});
