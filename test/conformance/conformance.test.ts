/**
 * The non-OAuth client scenarios of @modelcontextprotocol/conformance against Stratos's connection code
 * (test/conformance/client.ts). Each scenario starts its own server on localhost and runs the client command.
 */
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {mkdtemp, rm} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {after, describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';

const require = createRequire(import.meta.url);
const conformance = join(
  dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);
const client = fileURLToPath(new URL('./client.ts', import.meta.url));
const output = await mkdtemp(join(tmpdir(), 'stratos-conformance-'));
after(() => rm(output, {recursive: true, force: true}));

function runScenario(scenario: string): Promise<{code: number | null; text: string}> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        conformance,
        'client',
        '--command',
        `${JSON.stringify(process.execPath)} ${JSON.stringify(client)}`,
        '--scenario',
        scenario,
        '--timeout',
        '30000',
        '-o',
        join(output, scenario),
      ],
      {stdio: ['ignore', 'pipe', 'pipe'], env: {...process.env, NO_COLOR: '1'}},
    );
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.stderr.on('data', (chunk) => (text += chunk));
    child.on('close', (code) => resolve({code, text}));
  });
}

// One scenario at a time: sse-retry measures the client's reconnect timing.
describe('MCP conformance client scenarios', {concurrency: false}, () => {
  for (const scenario of ['initialize', 'tools_call', 'sse-retry', 'elicitation-sep1034-client-defaults']) {
    test(scenario, async () => {
      const {code, text} = await runScenario(scenario);
      assert.equal(code, 0, text);
      assert.match(text, /OVERALL: PASSED/);
      assert.doesNotMatch(text, /[1-9]\d* failed/);
    });
  }
});
