/**
 * The reference server `@modelcontextprotocol/server-everything` over stdio and over Streamable HTTP: the real
 * CLI discovers its tools, generates and compiles the wrapper with a consumer, and calls tools (draft-07 output
 * schema included).
 */
import assert from 'node:assert/strict';
import {type ChildProcess, spawn} from 'node:child_process';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {findClosedPort} from '../../helpers/closed-port.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const q = JSON.stringify;

const consumer = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createEverything, {type Tool_get$2D$sumInput} from './generated/mcp/everything.js';

export default workflow({
  input: z.strictObject({}),
  output: z.object({
    echo: z.string().describe('Echoed text'),
    sum: z.string().describe('Sum as text'),
    temperature: z.number().describe('Structured temperature'),
  }),
  async run() {
    const everything = await createEverything();
    const echoed = await everything.echo({message: 'hello'});
    const args: Tool_get$2D$sumInput = {a: 2, b: 40};
    const sum = await everything['get-sum'](args);
    const weather = await everything['get-structured-content']({location: 'Chicago'});
    const temperature: number = weather.structuredContent.temperature;
    const text = (result: typeof echoed) => (result.content[0]?.type === 'text' ? result.content[0].text : '');
    return {echo: text(echoed), sum: text(sum), temperature};
  },
});
`;

let project: TempProject;
let http: ChildProcess | undefined;
let httpUrl = '';
before(async () => {
  project = await createTempProject('stratos-mcp-everything-');
  const port = await findClosedPort();
  http = spawn(process.execPath, [everything, 'streamableHttp'], {
    env: {...process.env, PORT: String(port)},
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server-everything did not start')), 20_000);
    http!.stderr!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    http!.once('exit', () => reject(new Error('server-everything exited')));
  });
  httpUrl = `http://127.0.0.1:${port}/mcp`;
});
after(async () => {
  if (http !== undefined && http.exitCode === null) {
    const exited = new Promise((resolve) => http!.once('exit', resolve));
    http.kill('SIGTERM');
    await exited;
  }
  await project.remove();
});

describe('server-everything', {concurrency: 3}, () => {
  for (const transport of ['stdio', 'http'] as const) {
    test(`generate, compile and call over ${transport}`, async () => {
      const name = `everything-${transport}`;
      const server =
        transport === 'stdio'
          ? `      type: stdio\n      command: ${q(process.execPath)}\n      args: ${q([everything, 'stdio'])}\n`
          : `      type: http\n      url: ${q(httpUrl)}\n`;
      await project.writeWorkflow(name, {
        'workflow.yaml': manifest(name, `mcp:\n  servers:\n    everything:\n${server}`),
        'workflow.ts': consumer,
      });
      const build = await project.cli(['build', name, '--json']);
      assert.equal(build.exitCode, 0, build.stdout + build.stderr);
      const run = await project.cli(['run', name, '--json']);
      assert.equal(run.exitCode, 0, run.stdout + run.stderr);
      assert.match(run.json.data.output.echo, /hello/);
      assert.match(run.json.data.output.sum, /42/);
      assert.equal(typeof run.json.data.output.temperature, 'number');
    });
  }
});
