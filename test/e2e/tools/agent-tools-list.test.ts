// `stratos tools list` through the real CLI: the supported tool names per harness, readable and --json.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {createTempProject} from '../../helpers/temp-project.ts';

test('tools list prints the shared and native tool names of each harness', async () => {
  const project = await createTempProject();
  try {
    const human = await project.cli(['tools', 'list']);
    assert.equal(human.exitCode, 0, human.stderr);
    assert.match(human.stdout, /claude-code/);
    assert.match(human.stdout, /bash\s+Bash/);
    assert.match(human.stdout, /bash\s+shell/);
    const json = await project.cli(['tools', 'list', '--json']);
    assert.equal(json.exitCode, 0);
    assert.equal(json.json.ok, true);
    const codex = json.json.data.harnesses.find((h: {harness: string}) => h.harness === 'codex');
    assert.deepEqual(codex.canonical.bash, ['shell']);
    assert.equal(codex.package, '@openai/codex-sdk');
    const opencode = json.json.data.harnesses.find((h: {harness: string}) => h.harness === 'opencode');
    assert.deepEqual(opencode.canonical['web fetch'], ['webfetch']);
    assert.equal(opencode.install, 'npm install @opencode-ai/sdk opencode-ai');
    // An ACP agent's tools are its own: none that Stratos can name or remove.
    const acp = json.json.data.harnesses.find((h: {harness: string}) => h.harness === 'acp');
    assert.equal(acp.package, '@agentclientprotocol/sdk');
    assert.deepEqual(acp.canonical.bash, []);
    assert.deepEqual(acp.removable, []);
  } finally {
    await project.remove();
  }
});
