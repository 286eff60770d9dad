/**
 * Generated MCP wrappers end to end: the real CLI builds temporary workflows against real MCP servers (ours from
 * test/servers/mcp over stdio and Streamable HTTP, in modern-only and legacy-only modes), compiles the
 * generated wrappers with their consumers and calls the tools.
 */
import assert from 'node:assert/strict';
import {existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {
  type McpHttpTestServer,
  type RecordedCall,
  SERVE_SCRIPT,
  startMcpHttpServer,
} from '../../servers/mcp/index.ts';

const q = JSON.stringify;

function stdioServer(
  server: string,
  mode: 'modern' | 'legacy' | 'both',
  env: Record<string, string> = {},
): string {
  const envLines = Object.entries(env)
    .map(([key, value]) => `        ${key}: ${q(value)}\n`)
    .join('');
  return (
    `      type: stdio\n      command: ${q(process.execPath)}\n` +
    `      args: ${q([SERVE_SCRIPT, server, '--stdio', '--mode', mode])}\n` +
    (envLines === '' ? '' : `      env:\n${envLines}`)
  );
}

function servers(entries: Record<string, string>): string {
  return `mcp:\n  servers:\n${Object.entries(entries)
    .map(([name, body]) => `    ${name}:\n${body}`)
    .join('')}`;
}

function readCalls(file: string): RecordedCall[] {
  if (!existsSync(file)) return [];
  // Several server processes may share one log: a call is identified by process and sequence number.
  const bySeq = new Map<string, RecordedCall>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const {event: _event, ...call} = JSON.parse(line) as RecordedCall & {event: string};
    bySeq.set(`${call.pid}:${call.seq}`, call);
  }
  return [...bySeq.values()];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const reportWorkflow = (
  imports: string,
  body: string,
) => `import {isStratosError, McpToolError, workflow} from '@stratoscli/stratos';
import {z} from 'zod';
${imports}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof McpToolError) return 'McpToolError:' + String(error.cause.isError) + ':' + error.tool;
    return isStratosError(error) ? error.code : String(error);
  }
}
void codeOf;

export default workflow({
  input: z.strictObject({}),
  output: z.object({report: z.string().describe('The findings as JSON text')}),
  async run() {
    const report: Record<string, unknown> = {};
${body}
    return {report: JSON.stringify(report)};
  },
});
`;

let project: TempProject;
before(async () => {
  project = await createTempProject('stratos-mcp-wrappers-');
});
after(() => project.remove());

async function runReport(name: string, env: NodeJS.ProcessEnv = {}): Promise<Record<string, unknown>> {
  const run = await project.cli(['run', name, '--json'], {env});
  assert.equal(run.exitCode, 0, run.stdout + run.stderr);
  return JSON.parse(run.json.data.output.report);
}

describe('generated MCP wrappers', {concurrency: 3}, () => {
  for (const mode of ['modern', 'legacy'] as const) {
    test(`agentstack over stdio (${mode}): build before workflow.ts, then typed structuredContent`, async () => {
      const name = `agentstack-${mode}`;
      const directory = await project.writeWorkflow(name, {
        'workflow.yaml': manifest(name, servers({agentstack: stdioServer('agentstack', mode)})),
      });
      const prepared = await project.cli(['build', name, '--json']);
      assert.equal(prepared.exitCode, 0, prepared.stdout + prepared.stderr);
      assert.equal(prepared.json.data.workflows[0].status, 'prepared');
      assert.match(prepared.json.message, /MCP wrappers prepared/);
      assert.equal(existsSync(join(directory, 'dist', '.stratos-build.json')), false);
      assert.equal(existsSync(join(directory, 'generated', 'mcp-negotiation.json')), true);
      const wrapper = readFileSync(join(directory, 'generated', 'mcp', 'agentstack.ts'), 'utf8');
      assert.match(wrapper, /export type Tool_agentstack\$2E\$executeInput/);
      assert.match(wrapper, /export type Tool_agentstack\$2E\$executeOutput/);
      assert.equal(wrapper.includes(process.execPath), false, 'no command line in the wrapper');

      await writeFile(
        join(directory, 'workflow.ts'),
        reportWorkflow(
          `import createAgentstack, {type Tool_agentstack$2E$executeInput} from './generated/mcp/agentstack.js';`,
          `    const agentstack = await createAgentstack();
    const args: Tool_agentstack$2E$executeInput = {steps: [{id: 's1', action: 'auth.get_profile'}], context: {project_id: 7}};
    const result = await agentstack['agentstack.execute'](args);
    const success: boolean | undefined = result.structuredContent.success;
    report.success = success;
    report.trace = result.structuredContent.trace_id;
    report.text = result.content[0]?.type === 'text';`,
        ),
      );
      const built = await project.cli(['build', name, '--json']);
      assert.equal(built.exitCode, 0, built.stdout + built.stderr);
      assert.equal(built.json.data.workflows[0].status, 'built');
      // The verdict discovery reached lives in its own file, written by the MCP client, not in the build record.
      const verdictFile = join(directory, 'generated', 'mcp-negotiation.json');
      const verdicts = JSON.parse(readFileSync(verdictFile, 'utf8'));
      assert.equal(verdicts.verdicts.agentstack.kind, mode);
      const record = JSON.parse(readFileSync(join(directory, 'dist', '.stratos-build.json'), 'utf8'));
      assert.equal('mcp' in record, false, 'the build record holds no verdicts');
      const report = await runReport(name);
      assert.equal(report.success, true);
      assert.match(String(report.trace), /^trace-1-/);
      assert.equal(report.text, true);

      // Without the file (as after a server change): the run's own connect remembers the verdict again.
      rmSync(verdictFile);
      assert.equal((await runReport(name)).success, true);
      assert.deepEqual(JSON.parse(readFileSync(verdictFile, 'utf8')), verdicts);
      const after = JSON.parse(readFileSync(join(directory, 'dist', '.stratos-build.json'), 'utf8'));
      assert.deepEqual(after, record, 'a run never writes the build record');

      // A rebuild for a code change keeps the file; a change of the server configuration deletes it (the
      // rediscovery that follows writes only what it reached: the marker entry is gone).
      const marked = {...verdicts, verdicts: {...verdicts.verdicts, marker: verdicts.verdicts.agentstack}};
      writeFileSync(verdictFile, JSON.stringify(marked));
      await writeFile(
        join(directory, 'workflow.ts'),
        `${readFileSync(join(directory, 'workflow.ts'), 'utf8')}\n`,
      );
      const rebuilt = await project.cli(['describe', name, '--json']);
      assert.equal(rebuilt.exitCode, 0, rebuilt.stdout + rebuilt.stderr);
      assert.deepEqual(JSON.parse(readFileSync(verdictFile, 'utf8')), marked);
      await writeFile(
        join(directory, 'workflow.yaml'),
        manifest(name, servers({agentstack: stdioServer('agentstack', mode, {UNUSED_SETTING: 'x'})})),
      );
      const changed = await project.cli(['describe', name, '--json']);
      assert.equal(changed.exitCode, 0, changed.stdout + changed.stderr);
      assert.deepEqual(JSON.parse(readFileSync(verdictFile, 'utf8')), verdicts, 'the marker was forgotten');
    });
  }

  describe('over Streamable HTTP (modern only)', {concurrency: 3}, () => {
    let schemas: McpHttpTestServer;
    let escapes: McpHttpTestServer;
    before(async () => {
      schemas = await startMcpHttpServer('schemas', {mode: 'modern'});
      escapes = await startMcpHttpServer('escapes', {mode: 'modern'});
    });
    after(async () => {
      await schemas.close();
      await escapes.close();
    });

    test('output schemas, isError, nonconforming output, timeout and concurrent calls', async () => {
      await project.writeWorkflow('schemas-http', {
        'workflow.yaml': manifest(
          'schemas-http',
          servers({schemas: `      type: http\n      url: ${q(schemas.url)}\n`}),
        ),
        'workflow.ts': reportWorkflow(
          `import createSchemas, {type Tool_array_outOutput} from './generated/mcp/schemas.js';`,
          `    const schemas = await createSchemas();
    const array: Tool_array_outOutput = (await schemas.array_out({})).structuredContent;
    const number: number = (await schemas.number_out({})).structuredContent;
    const nothing: null = (await schemas.null_out({})).structuredContent;
    const empty: unknown = (await schemas.empty_out({})).structuredContent;
    const named = await schemas.object_out({name: 'gear'});
    const name: string = named.structuredContent.name;
    const plain = await schemas.no_schema({});
    const optional: unknown = plain.structuredContent;
    Object.assign(report, {array, number, nothing, empty, name, optional: optional === undefined});
    report.plainText = plain.content[0]?.type === 'text' ? plain.content[0].text : undefined;
    report.isError = await codeOf(schemas.is_error({}));
    report.bad = await codeOf(schemas.bad_structured({}));
    report.missing = await codeOf(schemas.missing_structured({}));
    report.hang = await codeOf(schemas.hang({}));
    const slow = await Promise.all([schemas.slow({ms: 300}), schemas.slow({ms: 300}), schemas.slow({ms: 300})]);
    report.slow = slow.map((result) => result.structuredContent.waitedMs);
    const gathered = await Promise.all([1, 2, 3].map(() => schemas.gather({count: 3, limitMs: 4000})));
    report.overlapped = gathered.map((result) => result.structuredContent.overlapped);
    report.after = (await schemas.object_out({})).structuredContent.name;`,
        ),
      });
      // Built first with the default limits, so only the run's calls have the short one (the hang ends by it).
      const built = await project.cli(['build', 'schemas-http', '--json']);
      assert.equal(built.exitCode, 0, built.stdout + built.stderr);
      const report = await runReport('schemas-http', {STRATOS_MCP_REQUEST_TIMEOUT_MS: '5000'});
      assert.deepEqual(report.array, ['alpha', 'beta', 'gamma']);
      assert.equal(report.number, 42.5);
      assert.equal(report.nothing, null);
      assert.deepEqual(report.empty, {anything: ['goes', 1, true]});
      assert.equal(report.name, 'gear');
      assert.equal(report.optional, true);
      assert.equal(report.plainText, 'plain text result');
      assert.equal(report.isError, 'McpToolError:true:is_error');
      assert.equal(report.bad, 'STRATOS_MCP_OUTPUT_INVALID');
      assert.equal(report.missing, 'STRATOS_MCP_OUTPUT_MISSING');
      assert.equal(report.hang, 'STRATOS_MCP_REQUEST_TIMEOUT');
      assert.deepEqual(report.slow, [300, 300, 300]);
      // Concurrent calls overlap on the server: each of the three saw all three in progress at once (calls made
      // one after another would each wait out the limit alone), however slowly the machine delivers them.
      assert.deepEqual(report.overlapped, [true, true, true], 'the three calls ran one after another');
      assert.equal(report.after, 'widget');
      const hang = schemas.calls.find((call) => call.tool === 'hang');
      assert.ok(hang !== undefined);
      assert.equal(
        schemas.calls.filter((call) => call.tool === 'hang').length,
        1,
        'a timed-out call is not retried',
      );
      assert.equal(schemas.calls.filter((call) => call.tool === 'bad_structured').length, 1);
    });

    test('tool names that need every kind of escape keep their spelling', async () => {
      await project.writeWorkflow('escapes-http', {
        'workflow.yaml': manifest(
          'escapes-http',
          servers({escapes: `      type: http\n      url: ${q(escapes.url)}\n`}),
        ),
        'workflow.ts': reportWorkflow(
          `import createEscapes, {type Tool_get$2D$meInput, type Tool_caf$E9$Input, type Tool_$1F680$launchInput, type Tool_price$24$Input, type Tool_dotted$2E$nameOutput} from './generated/mcp/escapes.js';`,
          `    const escapes = await createEscapes();
    const me: Tool_get$2D$meInput = {login: 'octocat'};
    const coffee: Tool_caf$E9$Input = {sugar: true};
    const launch: Tool_$1F680$launchInput = {target: 'moon'};
    const price: Tool_price$24$Input = {amount: 9.5, currency: 'EUR'};
    const dotted: Tool_dotted$2E$nameOutput = (await escapes['dotted.name']({value: 'x'})).structuredContent;
    report.tools = [
      (await escapes['get-me'](me)).structuredContent.tool,
      (await escapes['café'](coffee)).structuredContent.tool,
      (await escapes['🚀launch'](launch)).structuredContent.tool,
      (await escapes.price$(price)).structuredContent.tool,
      dotted.tool,
    ];
    const plain = await escapes.plain_name({n: 3});
    report.plain = plain.content[0]?.type === 'text' ? JSON.parse(plain.content[0].text) : undefined;`,
        ),
      });
      const report = await runReport('escapes-http');
      assert.deepEqual(report.tools, ['get-me', 'café', '🚀launch', 'price$', 'dotted.name']);
      assert.deepEqual(report.plain, {tool: 'plain_name', echo: {n: 3}});
      assert.deepEqual(
        escapes.calls.map((call) => call.tool).sort(),
        ['café', 'dotted.name', 'get-me', 'plain_name', 'price$', '🚀launch'].sort(),
      );
    });
  });

  test('legacy servers keep the SDK projection of non-object outputs ({result})', async () => {
    await project.writeWorkflow('schemas-legacy', {
      'workflow.yaml': manifest('schemas-legacy', servers({schemas: stdioServer('schemas', 'legacy')})),
      'workflow.ts': reportWorkflow(
        `import createSchemas from './generated/mcp/schemas.js';`,
        `    const schemas = await createSchemas();
    const array: string[] = (await schemas.array_out({})).structuredContent.result;
    const number: number = (await schemas.number_out({})).structuredContent.result;
    Object.assign(report, {array, number});
    report.bad = await codeOf(schemas.bad_structured({}));`,
      ),
    });
    const report = await runReport('schemas-legacy');
    assert.deepEqual(report, {
      array: ['alpha', 'beta', 'gamma'],
      number: 42.5,
      bad: 'STRATOS_MCP_OUTPUT_INVALID',
    });
  });

  test('a changed schema is regenerated by an explicit build and fails its consumer; a removed tool too', async () => {
    const variant = join(project.cwd, 'changing-variant.json');
    await writeFile(variant, q({variant: 'a'}));
    const directory = await project.writeWorkflow('changing', {
      'workflow.yaml': manifest(
        'changing',
        servers({changing: stdioServer('changing', 'both', {STRATOS_TEST_SCHEMA_FILE: variant})}),
      ),
      'workflow.ts': reportWorkflow(
        `import createChanging from './generated/mcp/changing.js';`,
        `    const changing = await createChanging();
    const name: string = (await changing.lookup({id: 'x1'})).structuredContent.name;
    report.name = name;`,
      ),
    });
    assert.deepEqual(await runReport('changing'), {name: 'record-x1'});
    const wrapper = join(directory, 'generated', 'mcp', 'changing.ts');
    const first = readFileSync(wrapper, 'utf8');

    await writeFile(variant, q({variant: 'b'}));
    // run reuses the current wrapper (only an explicit build rediscovers): the old call now fails at the server.
    const reused = await project.cli(['run', 'changing', '--json']);
    assert.equal(reused.exitCode, 1);
    assert.equal(reused.json.error.code, 'STRATOS_MCP_TOOL_ERROR');
    const changed = await project.cli(['build', 'changing', '--json']);
    assert.equal(changed.exitCode, 1, changed.stdout);
    assert.equal(changed.json.error.code, 'STRATOS_BUILD_TYPE_ERROR');
    assert.match(changed.stdout, /workflow\.ts/);
    assert.notEqual(readFileSync(wrapper, 'utf8'), first);
    assert.match(readFileSync(wrapper, 'utf8'), /score: number/);

    await writeFile(variant, q({variant: 'removed'}));
    const removed = await project.cli(['build', 'changing', '--json']);
    assert.equal(removed.exitCode, 1);
    assert.equal(removed.json.error.code, 'STRATOS_BUILD_TYPE_ERROR');
    assert.match(removed.stdout, /lookup/);

    await writeFile(variant, q({variant: 'a'}));
    const back = await project.cli(['build', 'changing', '--json']);
    assert.equal(back.exitCode, 0, back.stdout);
    assert.equal(readFileSync(wrapper, 'utf8'), first);
  });

  test('a discovery failure fails the build and leaves no stale wrapper to fall back on', async () => {
    const directory = await project.writeWorkflow('broken', {
      'workflow.yaml': manifest('broken', servers({tools: stdioServer('counter', 'both')})),
      'workflow.ts': reportWorkflow(
        `import createTools from './generated/mcp/tools.js';`,
        `    const tools = await createTools();
    report.sum = (await tools.add({a: 1, b: 2})).structuredContent.sum;`,
      ),
    });
    assert.deepEqual(await runReport('broken'), {sum: 3});
    const wrapper = join(directory, 'generated', 'mcp', 'tools.ts');
    assert.ok(existsSync(wrapper));
    await writeFile(
      join(directory, 'workflow.yaml'),
      manifest(
        'broken',
        servers({
          tools: `      type: stdio\n      command: ${q(process.execPath)}\n      args: ["-e", "console.error('no server here'); process.exit(3)"]\n`,
        }),
      ),
    );
    const build = await project.cli(['build', 'broken', '--json']);
    assert.equal(build.exitCode, 1);
    assert.equal(build.json.error.code, 'STRATOS_MCP_DISCOVERY_FAILED');
    assert.match(build.json.error.message, /tools/);
    assert.match(build.json.error.message, /no server here/);
    assert.equal(existsSync(wrapper), false);
    const run = await project.cli(['run', 'broken', '--json']);
    assert.equal(run.exitCode, 1);
    assert.equal(run.json.error.code, 'STRATOS_MCP_DISCOVERY_FAILED');
  });

  test('the invocation closes its clients: pending calls are cancelled and servers stop, on success and failure', async () => {
    const log = join(project.cwd, 'cleanup-calls.jsonl');
    await project.writeWorkflow('cleanup', {
      'workflow.yaml': manifest(
        'cleanup',
        servers({schemas: stdioServer('schemas', 'modern', {STRATOS_TEST_CALL_LOG: log})}),
      ),
      'workflow.ts': `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createSchemas from './generated/mcp/schemas.js';

export default workflow({
  input: z.strictObject({fail: z.boolean().describe('Throw after starting the call')}),
  output: z.object({pid: z.number().describe('Server pid')}),
  async run({fail}) {
    const first = await createSchemas();
    const second = await createSchemas();
    void first.hang({}).catch(() => {});
    const slow = await second.slow({ms: 1});
    void slow;
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (fail) throw new Error('failing on purpose');
    return {pid: 0};
  },
});
`,
    });
    for (const fail of [false, true]) {
      const run = await project.cli(['run', 'cleanup', '--json', '--input', q({fail})]);
      assert.equal(run.exitCode, fail ? 1 : 0, run.stdout + run.stderr);
    }
    const calls = readCalls(log);
    const hangs = calls.filter((call) => call.tool === 'hang');
    assert.equal(hangs.length, 2);
    for (const hang of hangs) assert.equal(hang.status, 'cancelled');
    const pids = new Set(calls.map((call) => call.pid));
    assert.equal(pids.size, 4, 'each factory call owns its own client and server process');
    for (const pid of pids) assert.equal(isAlive(pid), false, `server ${pid} still running`);
  });

  test('connect failures are catchable and name the reference, never the value', async () => {
    await project.writeWorkflow('refs', {
      'workflow.yaml': manifest(
        'refs',
        servers({
          remote: `      type: http\n      url: "http://127.0.0.1:9/mcp"\n      headers:\n        Authorization: "Bearer {env:STRATOS_TEST_MISSING_TOKEN}"\n`,
        }),
      ),
    });
    const build = await project.cli(['build', 'refs', '--json']);
    assert.equal(build.exitCode, 1);
    assert.equal(build.json.error.code, 'STRATOS_CONFIG_ENV_MISSING');
    assert.match(build.json.error.message, /\{env:STRATOS_TEST_MISSING_TOKEN\}/);
  });

  test('run prepares wrappers only for directly used servers', async () => {
    const directory = await project.writeWorkflow('direct', {
      'workflow.yaml': manifest(
        'direct',
        servers({
          used: stdioServer('counter', 'both'),
          unused: `      type: stdio\n      command: "/nonexistent/never-started"\n`,
        }),
      ),
      'lib/sum.ts': `import createUsed from '../generated/mcp/used.js';
export async function sum(a: number, b: number): Promise<number> {
  const used = await createUsed();
  return (await used.add({a, b})).structuredContent.sum;
}
`,
      'workflow.ts': reportWorkflow(
        `import {sum} from './lib/sum.js';`,
        '    report.sum = await sum(20, 22);',
      ),
    });
    assert.deepEqual(await runReport('direct'), {sum: 42});
    assert.ok(existsSync(join(directory, 'generated', 'mcp', 'used.ts')));
    assert.equal(existsSync(join(directory, 'generated', 'mcp', 'unused.ts')), false);
    const listed = await project.cli(['mcp', 'list', '--json']);
    assert.equal(listed.exitCode, 0);
    const direct = listed.json.data.servers.filter(
      (server: {workflow: string}) => server.workflow === 'direct',
    );
    assert.deepEqual(
      direct.map((server: {name: string; transport: string}) => [server.name, server.transport]),
      [
        ['unused', 'stdio'],
        ['used', 'stdio'],
      ],
    );
  });
});
