// A tool result the MCP client refuses (over its 10 MiB message limit, or nested beyond the value depth limit)
// is reported with that cause and its own code, over stdio and over Streamable HTTP, never as "Connection closed".
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {type RawResultsHttpServer, startRawResultsHttpServer} from '../../servers/mcp/raw-results.ts';

const rawServer = fileURLToPath(new URL('../../servers/mcp/raw-results.ts', import.meta.url));

const q = JSON.stringify;
let project: TempProject;
let http: RawResultsHttpServer;

/** Calls the tool named by the input, then object_out on the same connection (is it still usable?). */
const callsTool = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createTools from './generated/mcp/tools.js';

export default workflow({
  input: z.strictObject({tool: z.enum(['huge_out', 'deep_out']).describe('The tool to call')}),
  output: z.object({size: z.number().describe('Characters of the result as JSON')}),
  async run({tool}) {
    const tools = await createTools();
    const result = tool === 'huge_out' ? await tools.huge_out({}) : await tools.deep_out({});
    return {size: JSON.stringify(result).length};
  },
});
`;

before(async () => {
  http = await startRawResultsHttpServer();
  project = await createTempProject('stratos-mcp-oversized-');
  await project.writeWorkflow('over-stdio', {
    'workflow.yaml': manifest(
      'over-stdio',
      `mcp:\n  servers:\n    tools:\n      type: stdio\n      command: ${q(process.execPath)}\n      args: ${q([rawServer, '--stdio'])}\n`,
    ),
    'workflow.ts': callsTool,
  });
  await project.writeWorkflow('over-http', {
    'workflow.yaml': manifest(
      'over-http',
      `mcp:\n  servers:\n    tools:\n      type: http\n      url: ${http.url}\n`,
    ),
    'workflow.ts': callsTool,
  });
});

after(async () => {
  await project?.remove();
  await http?.close();
});

for (const workflow of ['over-stdio', 'over-http']) {
  describe(workflow, () => {
    test('a result over the 10 MiB message limit names the limit', async () => {
      const result = await project.cli(['run', workflow, '--input', '{"tool":"huge_out"}', '--json']);
      assert.equal(result.exitCode, 1, result.stdout + result.stderr);
      assert.equal(result.json.error.code, 'STRATOS_MCP_RESULT_TOO_LARGE', result.stdout);
      assert.match(
        result.json.error.message,
        /MCP server 'tools' to tools\/call 'huge_out' is larger than the client's message limit of 10 MiB/,
      );
      assert.doesNotMatch(result.json.error.message, /Connection closed/);
    });

    test('a result nested deeper than the value limit names the limit', async () => {
      const result = await project.cli(['run', workflow, '--input', '{"tool":"deep_out"}', '--json']);
      assert.equal(result.exitCode, 1, result.stdout + result.stderr);
      assert.equal(result.json.error.code, 'STRATOS_MCP_RESULT_TOO_DEEP', result.stdout);
      assert.match(
        result.json.error.message,
        /MCP server 'tools' to tools\/call 'deep_out' is nested more than 100 levels deep at structuredContent(\.inner)+/,
      );
      assert.doesNotMatch(result.json.error.message, /Connection closed|call stack/);
    });
  });
}
